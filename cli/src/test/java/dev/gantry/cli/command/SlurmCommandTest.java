package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerConnector;
import dev.gantry.cli.controller.ControllerNotFoundException;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.Unreachable;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The helpers the Slurm commands share: one controller query, a session's work, and refusing operands. */
class SlurmCommandTest {

    /** An in-process channel to nobody: a session opens, and the call under test decides what happens. */
    private static final ControllerConnector NOBODY = () -> InProcessChannelBuilder.forName("nobody").build();

    private record Run(int status, String out, String err) {}

    /** A command "probe" whose execute is {@code body}. */
    private static Run probe(ControllerConnector connector, Function<Probe, Integer> body, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliContext context = new CliContext(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]), Map.of(),
                Path.of("/"), InstantSource.fixed(ClusterFixtures.NOW), () -> ZoneOffset.UTC, connector,
                CliHarness.ALICE);
        int status = new Probe(context, body).run(List.of(args));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final class Probe extends SlurmCommand {
        private final Function<Probe, Integer> body;
        ParsedArguments arguments;

        Probe(CliContext context, Function<Probe, Integer> body) {
            super(context, "probe", LetterH.NOHEADER);
            this.body = body;
        }

        @Override
        List<OptionSpec> options() {
            return List.of(OptionSpec.flag('l', "long"));
        }

        @Override
        String help() {
            return "";
        }

        @Override
        String usage() {
            return "";
        }

        @Override
        int execute(ParsedArguments arguments) {
            this.arguments = arguments;
            return body.apply(this);
        }
    }

    @Test
    void ask_returnsTheAnswer() {
        Run r = probe(NOBODY, p -> p.ask(session -> 7, failure -> p.fail("never: " + failure)));
        assertEquals(new Run(7, "", ""), r);
    }

    @Test
    void ask_failedCall_stopsWithWhatTheCommandPrintedAndReturned() {
        Run r = probe(NOBODY, p -> p.ask(session -> {
            throw Status.INTERNAL.withDescription("boom").asRuntimeException();
        }, failure -> {
            p.fail("slurm_load_jobs error: " + failure);
            return 3;
        }));
        assertEquals(new Run(3, "", "slurm_load_jobs error: boom\n"), r);
    }

    @Test
    void ask_noControllerConfigured_isTheCommandsErrorAndExit1() {
        Run r = probe(Unreachable.notConfigured(), p -> p.ask(session -> 7, failure -> 5));
        assertEquals(new Run(1, "", "probe: error: " + ControllerNotFoundException.NOT_CONFIGURED + "\n"), r);
    }

    @Test
    void inSession_returnsTheWorksStatus_orExit1WithoutController() {
        assertEquals(new Run(4, "", ""), probe(NOBODY, p -> p.inSession(session -> 4)));
        assertEquals(new Run(1, "", "probe: error: " + ControllerNotFoundException.NOT_CONFIGURED + "\n"),
                probe(Unreachable.notConfigured(), p -> p.inSession(session -> 4)));
    }

    @Test
    void refuseOperands_namesTheFirstAndPointsToHelp() {
        Run r = probe(NOBODY, p -> {
            p.refuseOperands(p.arguments.operands());
            return 0;
        }, "-h", "stray", "other");
        assertEquals(new Run(1, "", "probe: error: Unrecognized option: stray\n"
                + "Try \"probe --help\" for more information\n"), r);
        assertEquals(new Run(0, "", ""), probe(NOBODY, p -> {
            p.refuseOperands(p.arguments.operands());
            return 0;
        }, "-h"));
    }

    @Test
    void letterH_noheader_addsDashHAsNoheader_andLeavesHelpLong() {
        assertEquals(new Run(0, "", ""), probe(NOBODY, p -> p.arguments.has("noheader") ? 0 : 9, "-h"));
        assertEquals(new Run(0, "", ""), probe(NOBODY, p -> p.arguments.has("noheader") ? 0 : 9, "--noheader"));
        assertEquals(new Run(0, "", ""), probe(NOBODY, p -> 9, "--help"));
    }
}
