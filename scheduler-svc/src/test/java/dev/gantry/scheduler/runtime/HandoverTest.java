package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A handed-over start says it is ready, then waits for the process it replaces, and only for it. */
class HandoverTest {

    @TempDir
    Path dir;

    @Test
    void saysItIsReady_thenWaitsForTheOldProcessToExit() throws Exception {
        Process old = new ProcessBuilder("sleep", "600").start();
        Path ready = dir.resolve("scheduler.handover");
        try {
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
                try {
                    Handover.awaitPredecessor(old.pid(), ready.toString(), Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(ready) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(Files.exists(ready), "the handover file says it is ready");
            assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(ready));
            Thread.sleep(300);
            assertFalse(waiting.isDone(), "the old one still runs: no database yet");

            old.destroy(); // the supervisor's SIGTERM
            waiting.get(30, TimeUnit.SECONDS);
            assertFalse(old.isAlive());
        } finally {
            old.destroyForcibly();
        }
    }

    @Test
    void anOrdinaryStartDoesNotWait_andAGoneProcessIsNotWaitedFor() throws Exception {
        Path ready = dir.resolve("x.handover");
        Handover.awaitPredecessor(0, ready.toString(), Duration.ofSeconds(60));
        assertFalse(Files.exists(ready), "no handover: nothing written");

        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Handover.awaitPredecessor(gone.pid(), ready.toString(), Duration.ofSeconds(60)); // returns at once
        assertTrue(Files.exists(ready));
    }
}
