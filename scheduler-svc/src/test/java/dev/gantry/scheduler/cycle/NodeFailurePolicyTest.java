package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeFailurePolicyTest {

    private static JobRecord on(long id, JobState state, String... nodes) {
        List<NodeShare> shares = java.util.Arrays.stream(nodes).map(n -> new NodeShare(n, 1, 100)).toList();
        return aJob(id).build().toBuilder().state(state, T0).allocation(shares).startTime(T0).build();
    }

    /** A job submitted with --no-requeue (or under JobRequeue=0). */
    private static JobRecord noRequeue(JobRecord j) {
        var c = j.controls();
        return j.toBuilder().controls(new dev.gantry.scheduler.model.JobControls(c.account(), c.qos(), c.nice(), false,
                c.restartCount(), c.hold(), c.beginTime(), c.dependency(), c.arrayJobId(), c.arrayTaskId(), c.arraySpec(),
                c.arrayMaxRunning(), c.adminPriority())).build();
    }

    private static List<String> fates(List<NodeFailurePolicy.Outcome> outcomes) {
        return outcomes.stream().map(o -> o.getClass().getSimpleName() + " " + o.job().id()).toList();
    }

    @Test
    void nodeDown_requeuesItsRunningAndSuspendedJobs_whenJobsAreRequeueable() {
        List<JobRecord> jobs = List.of(on(3, JobState.RUNNING, "n1"), on(1, JobState.SUSPENDED, "n1", "n2"), on(2, JobState.RUNNING, "n2"));

        assertEquals(List.of("Requeue 1", "Requeue 3"), fates(NodeFailurePolicy.onNodeDown(jobs, "n1")));
    }

    @Test
    void nodeDown_endsItsJobsNodeFail_whenJobsAreNotRequeueable() {
        List<JobRecord> jobs = List.of(noRequeue(on(1, JobState.RUNNING, "n1")), noRequeue(on(2, JobState.SUSPENDED, "n1")),
                on(3, JobState.RUNNING, "n1"));

        assertEquals(List.of("NodeFail 1", "NodeFail 2", "Requeue 3"), fates(NodeFailurePolicy.onNodeDown(jobs, "n1")));
    }

    @Test
    void jobAlreadyBeingKilled_endsInItsOwnState_sinceTheNodeWillNotReport() {
        JobRecord cancelling = on(5, JobState.RUNNING, "n1").toBuilder().state(JobState.CANCELLED, T0).completing(true).build();

        assertEquals(List.of("EndCompleting 5"), fates(NodeFailurePolicy.onNodeDown(List.of(cancelling), "n1")));
    }

    @Test
    void pendingAndFinishedJobs_andJobsOnOtherNodes_areLeftAlone() {
        JobRecord pending = aJob(7).build();
        JobRecord finished = on(8, JobState.COMPLETED, "n1");
        JobRecord elsewhere = on(9, JobState.RUNNING, "n2");

        assertEquals(List.of(), NodeFailurePolicy.onNodeDown(List.of(pending, finished, elsewhere), "n1"));
    }
}
