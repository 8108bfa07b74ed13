package dev.gantry.cli.testing;

import dev.gantry.cli.CliContext;
import dev.gantry.cli.LocalAccount;
import dev.gantry.cli.Main;
import dev.gantry.cli.controller.ControllerConnector;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs commands as {@code Main} does, against a {@link FakeController} over grpc-java's in-process transport,
 * capturing stdout, stderr and the exit status. Time is {@link ClusterFixtures#NOW} in UTC; the caller is
 * alice (uid 1000, gid 1000, group "staff") on host login1.
 */
public final class CliHarness implements AutoCloseable {

    /** What one command run produced. */
    public record Result(int exitCode, String out, String err) {}

    /** The fixed caller. */
    public static final LocalAccount ALICE = new LocalAccount() {
        @Override public String userName() { return "alice"; }
        @Override public int uid() { return 1000; }
        @Override public int gid() { return 1000; }
        @Override public String hostName() { return "login1"; }
        @Override public String groupName(int gid) { return gid == 1000 ? "staff" : null; }
    };

    private final FakeController controller;
    private final Server server;
    private final String name;
    private final Map<String, String> environment = new HashMap<>(Map.of("HOME", "/home/alice", "USER", "alice"));
    private Path workingDirectory = Path.of("/home/alice");

    public CliHarness(FakeController controller) {
        this.controller = controller;
        this.name = InProcessServerBuilder.generateName();
        try {
            this.server = InProcessServerBuilder.forName(name).directExecutor().addService(controller).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public FakeController controller() {
        return controller;
    }

    public CliHarness inDirectory(Path directory) {
        this.workingDirectory = directory;
        return this;
    }

    public CliHarness withEnv(String key, String value) {
        environment.put(key, value);
        return this;
    }

    public Result run(String... args) {
        return runWithInput("", args);
    }

    public Result runWithInput(String stdin, String... args) {
        ControllerConnector inProcess = () -> InProcessChannelBuilder.forName(name).directExecutor().build();
        return runWith(inProcess, stdin, args);
    }

    /** Runs with another way of reaching the controller (e.g. none, or a real channel to a closed port). */
    public Result runWith(ControllerConnector connector, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliContext context = new CliContext(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                environment, workingDirectory, InstantSource.fixed(ClusterFixtures.NOW), () -> ZoneOffset.UTC,
                connector, ALICE);
        int code = Main.run(args, context);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
