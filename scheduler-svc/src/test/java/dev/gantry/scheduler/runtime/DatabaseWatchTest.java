package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.store.Database;
import dev.gantry.scheduler.store.DatabaseAvailability;
import dev.gantry.scheduler.store.DatabaseUnavailable;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JdbcJobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL killed with SIGKILL under a real writer: noticed, callers answered UNAVAILABLE, the server
 * restarted by the watch on the same data, and what was queued committed, no row lost or reverted.
 */
class DatabaseWatchTest {

    @TempDir
    Path stateDir;

    @Test
    void aKilledEmbeddedServer_isNoticed_answeredUnavailable_restarted_andWhatWasQueuedCommits() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DatabaseAvailability availability = new DatabaseAvailability();
        try (Database db = Database.embedded(stateDir, 4)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            try (GroupCommitWriter writer = new GroupCommitWriter(store, n -> {}, availability);
                    DatabaseWatch watch = new DatabaseWatch(db, availability, writer, registry)) {
                JobRecord running = aJob(1).build().toBuilder().state(JobState.RUNNING, T0)
                        .allocation(List.of(new NodeShare("n1", 1, 0))).startTime(T0).build();
                writer.write(running).get();
                long pid = db.embeddedServerPid();

                ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // SIGKILL
                TestWait.await("the outage noticed", () -> !availability.isUp());
                assertEquals(0.0, gauge(registry, "gantry_database_up"));
                assertEquals("database unavailable: the embedded PostgreSQL (pid " + pid + ") exited",
                        availability.outage().orElseThrow().getMessage());

                // while down: a write is answered UNAVAILABLE at once, and so is a barrier behind it
                JobRecord finished = running.toBuilder().state(JobState.COMPLETED, T0.plusSeconds(5)).endTime(T0.plusSeconds(5))
                        .build();
                CompletableFuture<Void> answer = writer.write(finished);
                ExecutionException e = assertThrows(ExecutionException.class, answer::get);
                assertInstanceOf(DatabaseUnavailable.class, e.getCause());
                CompletableFuture<Void> durable = writer.commit(aJob(2).build());

                TestWait.await("the database back", availability::isUp);
                durable.get();
                assertNotEquals(pid, db.embeddedServerPid(), "a new server");
                assertEquals(1.0, gauge(registry, "gantry_database_up"));
                assertEquals(1.0, registry.get("gantry_database_outages_total").counter().count());
                assertEquals(1.0, registry.get("gantry_database_restarts_total").counter().count());
                assertTrue(registry.get("gantry_database_outage_seconds_total").functionCounter().count() > 0);
                // the finished version, whose caller was told UNAVAILABLE, committed after all: never RUNNING again
                assertEquals(JobState.COMPLETED, store.find(1).orElseThrow().state());
                assertEquals(aJob(2).build(), store.find(2).orElseThrow());
                assertFalse(writer.flushed().isCompletedExceptionally());
            }
        }
        // and it is what the next start loads (WAL recovery on the same data directory)
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            assertEquals(List.of(2L), store.loadCurrent(T0.plusSeconds(3600)).stream().map(JobRecord::id).toList(),
                    "job 1 finished, job 2 pending");
        }
    }

    /**
     * A frozen server (every PostgreSQL process stopped, SIGSTOP): nothing exits, so the idle writer's probes tell; the
     * server answering again (SIGCONT), with nothing to commit, a probe marks it up.
     */
    @Test
    void aFrozenServer_isNoticedByTheIdleProbes_andUpAgainOnceItAnswers() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DatabaseAvailability availability = new DatabaseAvailability();
        try (Database db = Database.embedded(stateDir, 2);
                GroupCommitWriter writer = new GroupCommitWriter(new JdbcJobStore(db.dataSource()), n -> {}, availability);
                DatabaseWatch watch = new DatabaseWatch(db, availability, writer, registry)) {
            writer.write(aJob(1).build()).get();
            ProcessHandle server = ProcessHandle.of(db.embeddedServerPid()).orElseThrow();
            List<String> pids = java.util.stream.Stream.concat(java.util.stream.Stream.of(server), server.descendants())
                    .map(p -> Long.toString(p.pid())).toList();
            signal("-STOP", pids);
            try {
                TestWait.await("the frozen server noticed", () -> !availability.isUp());
                assertTrue(availability.outage().orElseThrow().getMessage().startsWith("database unavailable: probe failed: "),
                        availability.outage().orElseThrow().getMessage());
            } finally {
                signal("-CONT", pids);
            }
            TestWait.await("the database answering again", availability::isUp);
            assertEquals(0.0, registry.get("gantry_database_restarts_total").counter().count(), "nothing was restarted");
            assertEquals(server.pid(), db.embeddedServerPid());
            writer.write(aJob(2).build()).get();
        }
    }

    private static void signal(String signal, List<String> pids) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("kill", signal));
        cmd.addAll(pids);
        assertEquals(0, new ProcessBuilder(cmd).inheritIO().start().waitFor());
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }
}
