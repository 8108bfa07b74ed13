package dev.gantry.scheduler.store;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against a real (embedded) PostgreSQL, including a restart of the server on the same data directory. */
class JdbcJobStoreTest {

    @TempDir
    Path stateDir;

    @Test
    void jobsSurviveARestart_andStartUpLoadsUnfinishedAndRecentlyFinished() throws Exception {
        JobRecord pending = aJob(1).build();
        JobRecord running = aJob(2).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 1, 0))).startTime(T0).build();
        JobRecord oldDone = aJob(3).build().toBuilder().state(JobState.COMPLETED, T0).endTime(T0.minusSeconds(3600)).build();
        JobRecord recentDone = aJob(4).build().toBuilder().state(JobState.FAILED, T0).endTime(T0).exit(2, 0).build();
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            store.write(List.of(pending, running, oldDone, recentDone));
            store.write(List.of(pending.toBuilder().pendingReason(PendingReason.RESOURCES).build())); // an update replaces the row
        }
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            List<JobRecord> current = store.loadCurrent(T0.minusSeconds(300));
            assertEquals(List.of(1L, 2L, 4L), current.stream().map(JobRecord::id).toList());
            assertEquals("Resources", current.get(0).reason());
            assertEquals(running, current.get(1));
            assertEquals(recentDone, current.get(2));
            assertEquals(oldDone, store.find(3).orElseThrow(), "purged from memory, still in the database");
            assertTrue(store.find(99).isEmpty());
            assertEquals(4, store.maxJobId());
        }
    }

    private static JobRecord withTexts(JobRecord j, String script, Map<String, String> environment) {
        return j.toBuilder().request(j.request().toBuilder().script(script).environment(environment).build()).build();
    }

    private static long count(Database db, String sql) throws Exception {
        try (var c = db.dataSource().getConnection(); var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void scriptsAndEnvironments_areStoredOncePerContent_andReadBackWhole_inTheirOrder() throws Exception {
        String big = "#!/bin/sh\n# " + "x".repeat(1 << 20) + "\ntrue\n"; // 1 MiB, as an array's tasks share it
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("ZED", "last first");
        env.put("HOME", "/home/alice");
        env.put("PATH", "/usr/bin");
        List<JobRecord> tasks = LongStream.rangeClosed(1, 200).mapToObj(id -> withTexts(aJob(id).build(), big, env)).toList();
        JobRecord other = withTexts(aJob(201).build(), "#!/bin/sh\necho other\n", Map.of("HOME", "/home/bob"));
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            store.write(tasks);
            store.write(List.of(other, tasks.get(0).toBuilder().pendingReason(PendingReason.RESOURCES).build()));

            assertEquals(4, count(db, "SELECT count(*) FROM job_texts"), "two scripts, two environments");
            assertTrue(count(db, "SELECT max(length(job)) FROM jobs") < 4096, "no row holds a script");
        }
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            List<JobRecord> loaded = store.loadCurrent(T0);
            assertEquals(201, loaded.size());
            assertEquals(big, loaded.get(199).request().script());
            assertEquals(List.of("ZED", "HOME", "PATH"), List.copyOf(loaded.get(199).request().environment().keySet()),
                    "the submitted order");
            assertEquals(tasks.get(150), loaded.get(150));
            assertEquals(other, loaded.get(200));
            assertEquals(other, store.find(201).orElseThrow());
            assertTrue(loaded.get(5).request().script() == loaded.get(6).request().script(), "one string in memory");
        }
    }

    @Test
    void aRowWrittenBeforeTheTextsTable_withItsScriptInline_readsAsItWas() throws Exception {
        JobRecord old = withTexts(aJob(5).build(), "#!/bin/sh\necho inline\n", Map.of("A", "1"));
        try (Database db = Database.embedded(stateDir, 2)) {
            try (var c = db.dataSource().getConnection(); var ps = c.prepareStatement(
                    "INSERT INTO jobs (job_id, user_name, partition, state, submit_time, exit_code, job) VALUES (5, 'u', 'debug', 'PENDING', now(), 0, ?)")) {
                ps.setBytes(1, dev.gantry.scheduler.api.JobProtos.toProto(old).toByteArray());
                ps.executeUpdate();
            }
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            assertEquals(old, store.find(5).orElseThrow());
            assertEquals(List.of(old), store.loadCurrent(T0));
        }
    }

    @Test
    void aRowNamingAMissingScript_isAnError_notAJobWithoutItsScript() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            store.write(List.of(withTexts(aJob(1).build(), "#!/bin/sh\ntrue\n", Map.of())));
            try (var c = db.dataSource().getConnection()) {
                c.createStatement().executeUpdate("DELETE FROM job_texts");
            }
            StoreException e = org.junit.jupiter.api.Assertions.assertThrows(StoreException.class, () -> store.find(1));
            assertTrue(e.getMessage().contains("job 1: its script is missing from job_texts"), e.getMessage());
        }
    }

    /** A group commit is one INSERT of many rows: the upsert must still hold per row. */
    @Test
    void aGroupCommitLargerThanOneRewrittenInsert_insertsNewJobsAndReplacesNewerVersions() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            store.write(LongStream.rangeClosed(1, 300).mapToObj(id -> aJob(id).build()).toList());
            // one transaction: new versions of jobs 151..300 and new jobs 301..450
            store.write(LongStream.rangeClosed(151, 450)
                    .mapToObj(id -> id <= 300 ? aJob(id).build().toBuilder().pendingReason(PendingReason.RESOURCES).build() : aJob(id).build())
                    .toList());
            List<JobRecord> all = store.loadCurrent(T0);
            assertEquals(LongStream.rangeClosed(1, 450).boxed().toList(), all.stream().map(JobRecord::id).toList());
            assertEquals(LongStream.rangeClosed(151, 300).boxed().toList(),
                    all.stream().filter(j -> j.reason().equals("Resources")).map(JobRecord::id).toList());
            assertEquals(aJob(450).build(), store.find(450).orElseThrow());
        }
    }

    @Test
    void aJobListedTwiceInOneWrite_isStoredOnce_asItsLastVersion() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            JobRecord first = aJob(7).build();
            // one INSERT may not upsert a key twice
            store.write(List.of(first, aJob(8).build(), first.toBuilder().pendingReason(PendingReason.RESOURCES).build(), aJob(9).build()));
            assertEquals("Resources", store.find(7).orElseThrow().reason());
            assertEquals(List.of(7L, 8L, 9L), store.loadCurrent(T0).stream().map(JobRecord::id).toList());
        }
    }

    @Test
    void stepsAndTheirNumberingSurviveARestart_endedStepsLeave_butKeepTheirIds_andAGoneJobLeavesNothing() throws Exception {
        StepRegistry.Step s70 = step(7, 0);
        StepRegistry.Step s71 = step(7, 1);
        StepRegistry.Step s80 = step(8, 0);
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            // in one transaction with a job version, as the group commit writes them
            store.write(List.of(aJob(7).build()), List.of(new StepChange.Created(s70), new StepChange.Created(s71),
                    new StepChange.Created(s80)));
            store.write(List.of(), List.of(new StepChange.Ended(7, 1), new StepChange.JobGone(8)));
        }
        try (Database db = Database.embedded(stateDir, 2)) {
            JdbcJobStore store = new JdbcJobStore(db.dataSource());
            JobStore.StoredSteps stored = store.loadSteps();
            assertEquals(List.of(s70), stored.steps(), "7.1 ended, job 8 stopped running");
            assertEquals(Map.of(7L, 2), stored.nextStepIds(), "job 7's next step is 2: the ended 7.1 is not given again");
            assertEquals(aJob(7).build(), store.find(7).orElseThrow(), "the job version of the same transaction");
        }
    }

    private static StepRegistry.Step step(long job, int id) {
        return new StepRegistry.Step(job, id, "hostname", List.of("n1", "n2"), 2, List.of("hostname", "-s"), T0.plusSeconds(id));
    }
}
