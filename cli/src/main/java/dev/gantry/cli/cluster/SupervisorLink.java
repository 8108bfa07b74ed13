package dev.gantry.cli.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the commands reach the {@link Supervisor}: its pid file, and requests as files in supervisor/requests
 * ({@code NAME.req} holding "restart SERVICE" or "stop", answered by {@code NAME.done}); files, not a socket, so
 * nothing depends on the run directory's path length and a supervisor that is gone is seen at once (its pid).
 */
final class SupervisorLink {

    private SupervisorLink() {
    }

    static Path pidFile(Path runDir) {
        return runDir.resolve("supervisor.pid");
    }

    static Path requests(Path runDir) {
        return runDir.resolve("supervisor").resolve("requests");
    }

    /** The supervisor's pid as its file says, if it has one. */
    static Optional<Long> recordedPid(Path runDir) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile(runDir), StandardCharsets.UTF_8).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The supervisor's process, when it runs (a pid reused by another program is not it). */
    static Optional<ProcessHandle> running(Path runDir) {
        return recordedPid(runDir).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(Supervisor.class.getPackageName())
                        || c.contains("supervise")).orElse(true));
    }

    /**
     * Starts the supervisor as a process of its own (own session, so a Ctrl-C or the end of {@code gantry up} does not
     * reach it; stdin /dev/null; its log in logs/supervisor.log).
     */
    static Process start(Path runDir, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k"));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.add("-Dgantry.home=" + GantryCommand.home());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(GantryMain.class.getName());
        cmd.addAll(List.of("supervise", "--run-dir", runDir.toString()));
        Files.deleteIfExists(pidFile(runDir));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /**
     * Asks the running supervisor {@code request} and returns its answer; empty when no supervisor runs or it did not
     * answer within {@code timeout}.
     */
    static Optional<String> ask(Path runDir, String request, Duration timeout) throws IOException, InterruptedException {
        if (running(runDir).isEmpty()) {
            return Optional.empty();
        }
        Path dir = requests(runDir); // made 0700 by the supervisor
        String id = System.currentTimeMillis() + "-" + ProcessHandle.current().pid();
        Path tmp = dir.resolve(id + ".tmp");
        Files.writeString(tmp, request + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(id + ".req"), StandardCopyOption.ATOMIC_MOVE);
        Path done = dir.resolve(id + ".done");
        Instant until = Instant.now().plus(timeout);
        while (Instant.now().isBefore(until)) {
            if (Files.exists(done)) {
                String answer = Files.readString(done, StandardCharsets.UTF_8).trim();
                Files.deleteIfExists(done);
                return Optional.of(answer);
            }
            if (running(runDir).isEmpty()) {
                break;
            }
            Thread.sleep(50);
        }
        Files.deleteIfExists(dir.resolve(id + ".req"));
        return Optional.empty();
    }
}
