package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.store.DatabaseUnavailable;
import dev.gantry.scheduler.store.StateStore;
import dev.gantry.scheduler.store.StoreException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller while its database cannot commit (issue 17, "Database loss handled"): nothing is acknowledged that is
 * not durable — an exit report, or its repetition by the agent, is answered UNAVAILABLE until the job's end is
 * committed; a submission is refused; no job starts — and once the database commits again, what memory holds is what
 * is stored.
 */
class DatabaseOutageTest {

    ControllerHarness h;
    Store store;

    /** A memory store whose commits fail (as JdbcJobStore's do on a lost connection) while {@link #lost} is set. */
    static final class Store implements dev.gantry.scheduler.store.JobStore {
        final ControllerHarness.MemoryStore memory = new ControllerHarness.MemoryStore();
        volatile boolean lost;

        @Override
        public void write(List<JobRecord> jobs, List<StepChange> steps) throws StoreException {
            if (lost) {
                throw new StoreException("writing " + jobs.size() + " job(s) failed: An I/O error occurred while sending to the backend.", null);
            }
            memory.write(jobs, steps);
        }

        @Override public StoredSteps loadSteps() { return memory.loadSteps(); }
        @Override public List<JobRecord> loadCurrent(java.time.Instant since) { return memory.loadCurrent(since); }
        @Override public java.util.Optional<JobRecord> find(long id) { return memory.find(id); }
        @Override public long maxJobId() { return memory.maxJobId(); }
    }

    @BeforeEach
    void start() throws Exception {
        store = new Store();
        h = new ControllerHarness("""
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """, store, new StateStore.InMemory());
        h.controller.passes.databaseUp = h.writer.availability()::isUp; // as SchedulerRuntime wires it
        h.registerNodes("n1");
    }

    @AfterEach
    void stop() {
        store.lost = false;
        h.close();
    }

    CompletableFuture<Long> submit() {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice")
                .setUid(1000).setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).build()));
    }

    void startOnN1(long id) {
        h.startOn(id, "debug", new NodeShare("n1", 1, 1024, List.of(0), List.of()));
    }

    CompletableFuture<Void> exitReport(long id) {
        return h.controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n1").setExitCode(0)
                .setRestartCount(0).build());
    }

    static DatabaseUnavailable unavailable(CompletableFuture<?> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return assertInstanceOf(DatabaseUnavailable.class, e.getCause());
    }

    @Test
    void anExitReportAndItsRepetition_areNotAcknowledged_untilTheJobsEndIsCommitted() {
        long id = submit().join();
        startOnN1(id);
        TestWait.await("the start committed", () -> store.memory.find(id).map(j -> j.state() == JobState.RUNNING).orElse(false));

        store.lost = true;
        DatabaseUnavailable first = unavailable(exitReport(id));
        assertTrue(first.getMessage().startsWith("database unavailable: commit failed: writing 1 job(s) failed"), first.getMessage());
        assertEquals(JobState.COMPLETED, h.job(id).state(), "the controller's memory is the truth");
        assertEquals(JobState.RUNNING, store.memory.find(id).orElseThrow().state(), "not yet durable");
        // the agent, not acknowledged, sends it again: the job is over in memory, but its end is not durable
        unavailable(exitReport(id));

        store.lost = false;
        TestWait.await("the database commits again", () -> h.writer.availability().isUp());
        exitReport(id).join(); // acknowledged now
        assertEquals(JobState.COMPLETED, store.memory.find(id).orElseThrow().state());
    }

    @Test
    void whileTheDatabaseIsDown_submissionsAreRefused_andNoJobStarts_thenWhatWasQueuedCommitsAndRuns() {
        long queued = submit().join();
        store.lost = true;
        // the submission that meets the outage: not acknowledged, but not lost either
        DatabaseUnavailable met = unavailable(submit());
        assertTrue(met.getMessage().startsWith("database unavailable: commit failed: "), met.getMessage());
        // once the outage is known, a submission is refused before anything is accepted
        unavailable(submit());
        startOnN1(queued); // what a pass would do: it starts nothing
        assertEquals(JobState.PENDING, h.job(queued).state());
        assertEquals(List.of(), h.agent.launches);

        store.lost = false;
        TestWait.await("the database commits again", () -> h.writer.availability().isUp());
        TestWait.await("the submission that met the outage committed and queued",
                () -> store.memory.find(2).isPresent() && h.job(2) != null);
        assertEquals(JobState.PENDING, h.job(2).state());
        assertEquals(3L, submit().join(), "the refused submission took no job id");
        startOnN1(queued);
        assertEquals(JobState.RUNNING, h.job(queued).state());
        TestWait.await("its launch sent", () -> h.agent.launches.size() == 1);
    }
}
