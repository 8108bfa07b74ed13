package dev.gantry.cli.getopt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GetoptTest {

    private static final List<OptionSpec> SPECS = List.of(
            OptionSpec.flag('h', "noheader"),
            OptionSpec.flag('l', "long"),
            OptionSpec.withValue('N', "nodes"),
            OptionSpec.withValue('n', "ntasks"),
            OptionSpec.withValue('p', "partition", "partitions"),
            OptionSpec.withValue('\0', "parsable-extra"),
            OptionSpec.flag('\0', "parsable"),
            OptionSpec.withOptionalValue('j', "jobs"));

    /** "key=value key ... | operand operand" for the arguments (split on spaces). */
    private static String parse(String args, boolean stopAtOperand) throws UsageException {
        List<String> list = args.isBlank() ? List.of() : Arrays.asList(args.split(" "));
        ParsedArguments p = new Getopt(SPECS, stopAtOperand).parse(list);
        List<String> parts = new ArrayList<>();
        p.options().forEach(o -> parts.add(o.value() == null ? o.key() : o.key() + "=" + o.value()));
        return (String.join(" ", parts) + " |" + (p.operands().isEmpty() ? "" : " " + String.join(" ", p.operands()))).trim();
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '^', value = {
        "-h                     ^ noheader |",
        "-hl                    ^ noheader long |",
        "-N2                    ^ nodes=2 |",
        "-N 2                   ^ nodes=2 |",
        "-hN2                   ^ noheader nodes=2 |",
        "--nodes=2              ^ nodes=2 |",
        "--nodes 2              ^ nodes=2 |",
        "-n -1                  ^ ntasks=-1 |",
        "--ntasks -1            ^ ntasks=-1 |",
        "--part=debug           ^ partition=debug |",
        "--partitions=x         ^ partition=x |",
        "--noh                  ^ noheader |",
        "--parsable             ^ parsable |",
        "-j                     ^ jobs |",
        "-j5                    ^ jobs=5 |",
        "-j 5                   ^ jobs | 5",
        "--jobs=5,6             ^ jobs=5,6 |",
        "a -h b                 ^ noheader | a b",
        "-h -- -l               ^ noheader | -l",
        "-                      ^ | -",
        "-N 1 -N 3              ^ nodes=1 nodes=3 |",
    })
    void parsesLikeGetoptLong(String args, String expected) throws UsageException {
        assertEquals(expected, parse(args, false));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '^', value = {
        "-N 2 run.sh -l x       ^ nodes=2 | run.sh -l x",
        "run.sh --nodes=3       ^ | run.sh --nodes=3",
    })
    void stopsAtTheFirstOperandWhenAsked(String args, String expected) throws UsageException {
        assertEquals(expected, parse(args, true));
    }

    @ParameterizedTest(name = "{0} fails: {1}")
    @CsvSource(delimiter = '^', value = {
        "--foo        ^ unrecognized option '--foo'",
        "--foo=bar    ^ unrecognized option '--foo=bar'",
        "-Z           ^ invalid option -- 'Z'",
        "-hZ          ^ invalid option -- 'Z'",
        "--nodes      ^ option '--nodes' requires an argument",
        "--nod        ^ option '--nodes' requires an argument",
        "-N           ^ option requires an argument -- 'N'",
        "--long=yes   ^ option '--long' doesn't allow an argument",
        "--pars       ^ option '--pars' is ambiguous; possibilities: '--parsable-extra' '--parsable'",
        "--no         ^ option '--no' is ambiguous; possibilities: '--noheader' '--nodes'",
    })
    void reportsMistakesInGlibcsWords(String args, String message) {
        UsageException e = assertThrows(UsageException.class, () -> parse(args, false));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aFlagIsTrueOrAbsent_andAnOptionalArgumentBareIsEmpty() throws UsageException {
        ParsedArguments given = new Getopt(SPECS, false).parse(List.of("-l", "-j"));
        assertEquals(Boolean.TRUE, given.flag("long"));
        assertNull(given.flag("noheader"));
        assertEquals("", given.lastOrBare("jobs"));
        assertEquals("7", new Getopt(SPECS, false).parse(List.of("--jobs=7")).lastOrBare("jobs"));
        assertNull(new Getopt(SPECS, false).parse(List.of()).lastOrBare("jobs"));
    }
}
