package dev.gantry.scheduler.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restart handed over (the local cluster's {@code gantry restart scheduler}, docs/ARCHITECTURE.md "Supervision"): this
 * scheduler-svc was started while the one it replaces still serves (GANTRY_HANDOVER_PID), did its start-up, and here
 * says it is ready (creates GANTRY_HANDOVER_FILE, on which the supervisor stops the old one) and waits for the old one
 * to exit before it opens the database the old one holds.
 */
final class Handover {

    private static final Logger LOG = LoggerFactory.getLogger(Handover.class);
    /** How often the old process is looked at: the wait is the cluster's time without a controller. */
    private static final Duration POLL = Duration.ofMillis(20);

    private Handover() {
    }

    /**
     * Returns at once when {@code pid} is 0; else creates {@code file} (when named) and returns once process {@code pid}
     * has exited, or after {@code limit} (the supervisor kills a process that does not stop in its own limit).
     */
    static void awaitPredecessor(long pid, String file, Duration limit) throws InterruptedException {
        if (pid <= 0) {
            return;
        }
        long t0 = System.nanoTime();
        Optional<ProcessHandle> old = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (!file.isBlank()) {
            try {
                Files.writeString(Path.of(file), ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                LOG.warn("cannot create the handover file {} ({}): the supervisor stops pid {} when its own wait ends", file,
                        e.getMessage(), pid);
            }
        }
        if (old.isEmpty()) {
            return;
        }
        LOG.info("started; waiting for the scheduler-svc it replaces (pid {}) to stop before opening the database", pid);
        long deadline = t0 + limit.toNanos();
        while (old.get().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(POLL.toMillis());
        }
        if (old.get().isAlive()) {
            LOG.warn("pid {} still runs after {} s: going on", pid, limit.toSeconds());
        } else {
            LOG.info("pid {} stopped {} ms after this one was ready: taking over", pid, (System.nanoTime() - t0) / 1_000_000);
        }
    }
}
