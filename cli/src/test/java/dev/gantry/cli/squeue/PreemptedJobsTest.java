package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * squeue's view of preemption (the issue's "three modes on one node"): a requeued victim is PD with (Preempted) until a
 * pass gives it (Resources); a suspended one is S on its nodes; the preemptor R.
 */
class PreemptedJobsTest {

    private static List<String> lines(List<Job> jobs) {
        return new QueueReport(JobFormat.parse("%i %t %R"), JobOrder.parse("i"), new JobFilter(Set.of(), Set.of(),
                Set.of(), null), false).lines(JobInfos.jobs(jobs), NOW, ZoneOffset.UTC);
    }

    @Test
    void requeuedSuspendedAndRunning() {
        List<Job> jobs = List.of(
                aJob(1).setReason("Preempted").setRestartCount(1).build(),
                running(aJob(2), 60, "n1").setState(JobState.JOB_STATE_SUSPENDED).setAdminSuspended(false).build(),
                running(aJob(3), 5, "n1").build());

        assertEquals(List.of("1 PD (Preempted)", "2 S n1", "3 R n1"), lines(jobs));
    }

    @Test
    void onceAPassHasLookedAtIt_theRequeuedVictimWaitsForResources() {
        assertEquals(List.of("1 PD (Resources)"), lines(List.of(aJob(1).setReason("Resources").setRestartCount(1).build())));
    }

    @Test
    void anOperatorsSuspension_isSAsWell() {
        assertEquals(List.of("2 S n1"), lines(List.of(running(aJob(2), 60, "n1").setState(JobState.JOB_STATE_SUSPENDED)
                .setAdminSuspended(true).build())));
    }
}
