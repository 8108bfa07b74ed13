package dev.gantry.common.hostlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Host lists follow Slurm's syntax: https://slurm.schedmd.com/slurm.conf.html#OPT_NodeName. */
class HostlistTest {

    static Stream<Arguments> expansions() {
        return Stream.of(
                Arguments.of("a single name", "login", "login"),
                Arguments.of("a comma list keeps order and duplicates", "b1,a1,b1", "b1 a1 b1"),
                Arguments.of("white space around items is ignored", " n1 , n2 ", "n1 n2"),
                Arguments.of("a range", "n[1-3]", "n1 n2 n3"),
                Arguments.of("ranges and single numbers", "n[1-3,7]", "n1 n2 n3 n7"),
                Arguments.of("zero padding is kept", "n[01-03]", "n01 n02 n03"),
                Arguments.of("padding carries past the width", "n[08-10]", "n08 n09 n10"),
                Arguments.of("padded single number", "n[007]", "n007"),
                Arguments.of("a lone zero is not padding", "n[0-2]", "n0 n1 n2"),
                Arguments.of("a suffix after the brackets", "n[1-2]-ib", "n1-ib n2-ib"),
                Arguments.of("several brackets multiply, leftmost slowest", "rack[1-2]-n[1-2]",
                        "rack1-n1 rack1-n2 rack2-n1 rack2-n2"),
                Arguments.of("a bracket alone", "[3-4]", "3 4"),
                Arguments.of("bracketed and plain items mixed", "n[1-2],login01,gpu[10-11]", "n1 n2 login01 gpu10 gpu11"),
                Arguments.of("a range of one", "n[5-5]", "n5"),
                Arguments.of("blank is empty", "   ", ""));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("expansions")
    void expand_followsSlurmSyntax(String rule, String expression, String expected) {
        List<String> want = expected.isEmpty() ? List.of() : Arrays.asList(expected.split(" "));
        assertEquals(want, Hostlist.expand(expression));
    }

    @Test
    void expand_ofNullIsEmpty() {
        assertEquals(List.of(), Hostlist.expand(null));
    }

    @ParameterizedTest(name = "{0} fails naming \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "n[1-3         | unbalanced '['",
        "n1-3]         | unbalanced ']'",
        "n[1-2]]       | unbalanced ']'",
        "n[3-1]        | runs backwards",
        "n[a-c]        | not numeric",
        "n[1-x]        | not numeric",
        "n[-3]         | not numeric",
        "n[1-2-3]      | not numeric",
        "n[]           | empty range",
        "n[1,,2]       | empty range",
        "n1,,n2        | empty host name",
        "n[1-1000001]  | more than 1000000 hosts",
        "n[1-99999999999999999999] | too large",
    })
    void expand_refusesMalformedExpressions(String expression, String problem) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Hostlist.expand(expression));
        assertTrue(e.getMessage().contains(problem), () -> "message '" + e.getMessage() + "' should say " + problem);
    }

    @ParameterizedTest(name = "non-ASCII digit in {0}")
    @ValueSource(strings = {"n[\u0661-\u0663]", "n[1-\u0663]"})
    void expand_acceptsOnlyAsciiDigitsInRanges(String expression) {
        assertThrows(IllegalArgumentException.class, () -> Hostlist.expand(expression));
    }

    @Test
    void expand_allowsExactlyMaxHostsInOneRange() {
        assertEquals(Hostlist.MAX_HOSTS, Hostlist.expand("n[1-" + Hostlist.MAX_HOSTS + "]").size());
    }

    @Test
    void expand_countsHostsAcrossBracketsAndItems() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Hostlist.expand("a[1-600000],b[1-600000]"));
        assertTrue(e.getMessage().contains("more than " + Hostlist.MAX_HOSTS), e.getMessage());
    }

    static Stream<Arguments> compressions() {
        return Stream.of(
                Arguments.of("consecutive numbers become a range", "n1 n2 n3 n7", "n[1-3,7]"),
                Arguments.of("a single numbered name stays plain", "n7", "n7"),
                Arguments.of("names without numbers stay plain", "login", "login"),
                Arguments.of("numbers are sorted and deduplicated", "n3 n1 n2 n1", "n[1-3]"),
                Arguments.of("numeric, not lexical, order", "n10 n9 n2", "n[2,9-10]"),
                Arguments.of("padding is kept", "n01 n02 n03", "n[01-03]"),
                Arguments.of("different widths stay apart", "n01 n1 n02 n2", "n[01-02],n[1-2]"),
                Arguments.of("groups keep first-seen order", "gpu1 n1 gpu2 n2 login", "gpu[1-2],n[1-2],login"),
                Arguments.of("only the trailing number is ranged", "rack1-n1 rack1-n2 rack2-n1", "rack1-n[1-2],rack2-n1"),
                Arguments.of("empty list", "", ""));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("compressions")
    void compress_givesSlurmRangedForm(String rule, String names, String expected) {
        List<String> list = names.isEmpty() ? List.of() : Arrays.asList(names.split(" "));
        assertEquals(expected, Hostlist.compress(list));
    }

    @ParameterizedTest(name = "compress(expand({0})) = {0}")
    @ValueSource(strings = {"n[1-3,7]", "n[01-10]", "n[1-2],login", "gpu[001-004,010],n[1-128]", "rack1-n[1-2],rack2-n[1-2]",
        "n0", "a[1,3,5,7-9]"})
    void compress_roundTripsSortedUniqueExpressions(String expression) {
        assertEquals(expression, Hostlist.compress(Hostlist.expand(expression)));
    }

    @Test
    void compress_ofMultiBracketExpansionExpandsBackToTheSameNames() {
        List<String> names = Hostlist.expand("rack[1-3]-n[01-04]");
        assertEquals(names, Hostlist.expand(Hostlist.compress(names)));
    }
}
