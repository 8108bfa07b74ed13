package dev.gantry.scheduler.control;

import static dev.gantry.scheduler.control.DependencyStatus.NEVER;
import static dev.gantry.scheduler.control.DependencyStatus.SATISFIED;
import static dev.gantry.scheduler.control.DependencyStatus.WAITING;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When each dependency type holds, as sbatch documents and slurmctld's test_job_dependency decides:
 * https://slurm.schedmd.com/sbatch.html#OPT_dependency.
 */
class DependencyPolicyTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final DependentJob SELF = new DependentJob(100, -1, "alice", "me");

    private static DependencyStatus status(String dependency, FakeDependencyView view) {
        return DependencyPolicy.evaluate(Dependency.parse(dependency), SELF, view, NOW).status();
    }

    @ParameterizedTest(name = "{0} on a {1} job: {2}")
    @CsvSource({
        // after: once started (or cancelled)
        "after,      PENDING,       WAITING",
        "after,      RUNNING,       SATISFIED",
        "after,      SUSPENDED,     SATISFIED",
        "after,      COMPLETED,     SATISFIED",
        "after,      CANCELLED,     SATISFIED",
        // afterany: once ended, in any state
        "afterany,   PENDING,       WAITING",
        "afterany,   RUNNING,       WAITING",
        "afterany,   SUSPENDED,     WAITING",
        "afterany,   COMPLETED,     SATISFIED",
        "afterany,   FAILED,        SATISFIED",
        "afterany,   CANCELLED,     SATISFIED",
        "afterany,   TIMEOUT,       SATISFIED",
        "afterany,   NODE_FAIL,     SATISFIED",
        "afterany,   PREEMPTED,     SATISFIED",
        "afterany,   OUT_OF_MEMORY, SATISFIED",
        // afterok: only COMPLETED; never once it ended otherwise
        "afterok,    PENDING,       WAITING",
        "afterok,    RUNNING,       WAITING",
        "afterok,    COMPLETED,     SATISFIED",
        "afterok,    FAILED,        NEVER",
        "afterok,    CANCELLED,     NEVER",
        "afterok,    TIMEOUT,       NEVER",
        "afterok,    NODE_FAIL,     NEVER",
        "afterok,    PREEMPTED,     NEVER",
        "afterok,    OUT_OF_MEMORY, NEVER",
        // afternotok: only an end other than COMPLETED; never once COMPLETED
        "afternotok, PENDING,       WAITING",
        "afternotok, RUNNING,       WAITING",
        "afternotok, COMPLETED,     NEVER",
        "afternotok, FAILED,        SATISFIED",
        "afternotok, CANCELLED,     SATISFIED",
        "afternotok, TIMEOUT,       SATISFIED",
        "afternotok, NODE_FAIL,     SATISFIED",
        "afternotok, OUT_OF_MEMORY, SATISFIED",
    })
    void eachTypeAgainstEachState(String type, JobState state, DependencyStatus expected) {
        assertEquals(expected, status(type + ":7", new FakeDependencyView().job(7, state)));
    }

    @Test
    void aJobStillCompletingHasNotEndedYet() {
        var view = new FakeDependencyView().job(7, JobState.CANCELLED, true, Instant.EPOCH);
        assertEquals(WAITING, status("afterany:7", view));
        assertEquals(WAITING, status("afternotok:7", view));
        assertEquals(WAITING, status("afterok:7", view), "not NEVER while it is still completing");
    }

    @Test
    void aJobTheControllerNoLongerKnowsLiftsItsTerm() {
        assertEquals(SATISFIED, status("afterok:7", new FakeDependencyView()));
    }

    @Test
    void afterWithADelayCountsMinutesFromTheStart() {
        Instant started = NOW.minusSeconds(4 * 60);
        var view = new FakeDependencyView().job(7, JobState.RUNNING, false, started);
        assertEquals(WAITING, status("after:7+5", view));
        assertEquals(SATISFIED, status("after:7+4", view), "exactly the delay has passed");
        assertEquals(WAITING, status("after:7+5", new FakeDependencyView().job(7, JobState.PENDING)));
    }

    @Test
    void afterWithADelayOnAJobCancelledBeforeItStartedHolds() {
        assertEquals(SATISFIED, status("after:7+5", new FakeDependencyView().job(7, JobState.CANCELLED, false, null)));
    }

    @ParameterizedTest(name = "{0} with 7 {1} and 8 {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "afterok:7:8 | COMPLETED | COMPLETED | SATISFIED",
        "afterok:7:8 | COMPLETED | RUNNING   | WAITING",
        "afterok:7:8 | FAILED    | RUNNING   | NEVER",
        "afterok:7?afterok:8 | FAILED | RUNNING | WAITING",
        "afterok:7?afterok:8 | FAILED | COMPLETED | SATISFIED",
        "afterok:7?afterok:8 | FAILED | CANCELLED | NEVER",
        "afterok:7?afterok:8 | RUNNING | COMPLETED | SATISFIED",
        "afterok:7,afternotok:8 | COMPLETED | FAILED | SATISFIED",
        "afterok:7,afternotok:8 | COMPLETED | COMPLETED | NEVER",
    })
    void commaNeedsEveryTerm_questionMarkAny(String dependency, JobState seven, JobState eight, DependencyStatus expected) {
        var view = new FakeDependencyView().job(7, seven).job(8, eight);
        assertEquals(expected, status(dependency, view));
    }

    @Test
    void anEmptyDependencyHolds() {
        assertEquals(SATISFIED, status("", new FakeDependencyView()));
    }

    @Test
    void anArrayJobIdMeansEveryTask() {
        var running = new FakeDependencyView().task(50, 0, 50, JobState.COMPLETED).task(50, 1, 51, JobState.RUNNING);
        assertEquals(WAITING, status("afterok:50", running));
        assertEquals(WAITING, status("afterok:50_*", running));
        assertEquals(SATISFIED, status("afterok:50_0", running));
        assertEquals(SATISFIED, status("after:50", running), "every task has started");

        var oneFailed = new FakeDependencyView().task(50, 0, 50, JobState.FAILED).task(50, 1, 51, JobState.COMPLETED);
        assertEquals(NEVER, status("afterok:50", oneFailed));
        assertEquals(SATISFIED, status("afternotok:50", oneFailed));
        assertEquals(SATISFIED, status("afterany:50", oneFailed));

        var onePending = new FakeDependencyView().task(50, 0, 50, JobState.RUNNING).task(50, 1, 50, JobState.PENDING);
        assertEquals(WAITING, status("after:50", onePending), "a task still pends");
    }

    @Test
    void aftercorrPairsTasksById() {
        var view = new FakeDependencyView().task(50, 0, 50, JobState.COMPLETED).task(50, 1, 51, JobState.FAILED)
                .task(50, 2, 52, JobState.RUNNING);
        Dependency corr = Dependency.parse("aftercorr:50");
        assertEquals(SATISFIED, DependencyPolicy.evaluate(corr, new DependentJob(60, 0, "a", "n"), view, NOW).status());
        assertEquals(NEVER, DependencyPolicy.evaluate(corr, new DependentJob(61, 1, "a", "n"), view, NOW).status());
        assertEquals(WAITING, DependencyPolicy.evaluate(corr, new DependentJob(62, 2, "a", "n"), view, NOW).status());
        assertEquals(WAITING, DependencyPolicy.evaluate(corr, new DependentJob(63, 9, "a", "n"), view, NOW).status(),
                "no task 9: the whole array decides, and task 2 still runs");
    }

    @ParameterizedTest(name = "singleton with another 'me' {0} (id {1}): {2}")
    @CsvSource({
        "RUNNING,   120, WAITING",
        "SUSPENDED, 120, WAITING",
        "PENDING,   90,  WAITING",
        "PENDING,   120, SATISFIED",
        "COMPLETED, 90,  SATISFIED",
        "CANCELLED, 90,  SATISFIED",
    })
    void singletonWaitsForTheOtherJobsOfTheSameNameAndUser(JobState other, long otherId, DependencyStatus expected) {
        var view = new FakeDependencyView().named(otherId, other, "alice", "me").named(100, JobState.PENDING, "alice", "me");
        assertEquals(expected, status("singleton", view));
    }

    @Test
    void singletonIgnoresOtherUsersAndOtherNames() {
        var view = new FakeDependencyView().named(90, JobState.RUNNING, "bob", "me")
                .named(91, JobState.RUNNING, "alice", "other");
        assertEquals(SATISFIED, status("singleton", view));
    }

    @Test
    void resultGivesThePendingReasonAndScontrolsText() {
        var view = new FakeDependencyView().job(7, JobState.COMPLETED).job(8, JobState.RUNNING).job(9, JobState.FAILED);
        DependencyResult waiting = DependencyPolicy.evaluate(Dependency.parse("afterok:7:8"), SELF, view, NOW);
        assertEquals("Dependency", waiting.pendingReason().orElseThrow().slurmName());
        assertEquals("afterok:8(unfulfilled)", waiting.describe());

        DependencyResult never = DependencyPolicy.evaluate(Dependency.parse("afterok:8,afterok:9"), SELF, view, NOW);
        assertEquals("DependencyNeverSatisfied", never.pendingReason().orElseThrow().slurmName());
        assertEquals("afterok:8(unfulfilled),afterok:9(failed)", never.describe());

        DependencyResult done = DependencyPolicy.evaluate(Dependency.parse("afterok:7"), SELF, view, NOW);
        assertEquals(java.util.Optional.empty(), done.pendingReason());
        assertEquals("(null)", done.describe());
        assertEquals(2, never.terms().size());
    }

    @Test
    void checkAtSubmit_refusesAJobThatDoesNotExist() {
        var view = new FakeDependencyView().job(7, JobState.RUNNING);
        InvalidControlException e = assertThrows(InvalidControlException.class,
                () -> DependencyPolicy.checkAtSubmit(Dependency.parse("afterok:7:99"), 0, view));
        assertEquals("Job dependency problem", e.getMessage());
        assertEquals("--dependency=afterok:7,afterok:99: job 99 does not exist", e.detail());
    }

    @Test
    void checkAtSubmit_refusesAnArrayTaskThatDoesNotExist() {
        var view = new FakeDependencyView().task(50, 0, 50, JobState.RUNNING);
        assertThrows(InvalidControlException.class,
                () -> DependencyPolicy.checkAtSubmit(Dependency.parse("afterok:50_3"), 0, view));
    }

    @Test
    void checkAtSubmit_acceptsArrayIdsTasksAndSingleton() {
        var view = new FakeDependencyView().task(50, 0, 50, JobState.RUNNING).task(50, 1, 51, JobState.PENDING)
                .job(7, JobState.COMPLETED);
        assertDoesNotThrow(() -> DependencyPolicy.checkAtSubmit(
                Dependency.parse("afterok:50,afterany:50_1,after:50_*,afterok:7,singleton"), 0, view));
    }

    @Test
    void checkAtSubmit_refusesTheJobItself() {
        var view = new FakeDependencyView().job(7, JobState.PENDING);
        InvalidControlException e = assertThrows(InvalidControlException.class,
                () -> DependencyPolicy.checkAtSubmit(Dependency.parse("afterok:7"), 7, view));
        assertEquals("--dependency=afterok:7: a job cannot depend on itself (7)", e.detail());
    }
}
