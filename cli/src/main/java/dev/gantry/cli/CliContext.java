package dev.gantry.cli;

import dev.gantry.cli.controller.ControllerConnector;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Everything a command takes from the outside world, so that tests can give it fakes.
 *
 * @param out standard output
 * @param err standard error
 * @param in standard input (sbatch reads a script from it)
 * @param environment the process environment
 * @param workingDirectory the current directory, absolute
 * @param clock the time reports are made at
 * @param timeZone the zone timestamps print in, looked up when first needed (loading the time-zone
 *     database costs about 30 ms of a command's start-up, and most runs print no timestamp)
 * @param controller opens channels to the controller
 * @param account the calling user and host
 */
public record CliContext(PrintStream out, PrintStream err, InputStream in, Map<String, String> environment,
                         Path workingDirectory, InstantSource clock, Supplier<ZoneId> timeZone,
                         ControllerConnector controller, LocalAccount account) {

    public CliContext {
        environment = Map.copyOf(environment);
    }

    /** The real process: buffered stdout/stderr (flushed by {@link Main}), environment, clock and user. */
    public static CliContext system() {
        Map<String, String> env = System.getenv();
        Path cwd = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        return new CliContext(out, err, System.in, env, cwd, InstantSource.system(), new SystemZone(),
                ControllerConnector.locating(env, cwd), new UnixAccount());
    }

    /** The zone timestamps print in. */
    public ZoneId zone() {
        return timeZone.get();
    }

    /** The system's default zone, looked up once, on first use. */
    private static final class SystemZone implements Supplier<ZoneId> {
        private ZoneId zone;

        @Override
        public synchronized ZoneId get() {
            if (zone == null) {
                zone = ZoneId.systemDefault();
            }
            return zone;
        }
    }

    /** The same context connecting through {@code connector}. */
    public CliContext withController(ControllerConnector connector) {
        return new CliContext(out, err, in, environment, workingDirectory, clock, timeZone, connector, account);
    }
}
