package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A picocli command (as the future cluster launcher will be) runs through {@link CommandRunner#picocli}. */
class PicocliCommandTest {

    @Command(name = "demo", versionProvider = GantryVersion.ForPicocli.class, mixinStandardHelpOptions = true)
    static final class Demo implements Callable<Integer> {
        private final CliContext context;

        @Option(names = "--times")
        int times = 1;

        Demo(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            context.out().println("hello x" + times);
            return 3;
        }
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW))) {
            CliContext base = CliContext.system();
            CliContext context = new CliContext(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), base.in(), base.environment(),
                    base.workingDirectory(), base.clock(), base.timeZone(), base.controller(), CliHarness.ALICE);
            int code = CommandRunner.picocli("demo", Demo::new).apply(context).run(List.of(args));
            return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
        }
    }

    @Test
    void runsTheCommandAndReturnsItsStatus() {
        String[] r = run("--times", "2");
        assertEquals("3", r[0]);
        assertEquals("hello x2\n", r[1]);
    }

    @Test
    void usageMistakesLookLikeSlurms() {
        String[] r = run("--bogus");
        assertEquals("1", r[0]);
        assertEquals("demo: unrecognized option '--bogus'\nTry \"demo --help\" for more information\n", r[2]);
    }

    @Test
    void versionComesFromTheJar() {
        String[] r = run("--version");
        assertEquals("0", r[0]);
        assertEquals(GantryVersion.line() + "\n", r[1]);
    }
}
