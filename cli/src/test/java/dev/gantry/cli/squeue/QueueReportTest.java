package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.model.JobInfo;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueReportTest {

    private static final List<JobInfo> JOBS = JobInfos.jobs(List.of(
            aJob(1).build(),
            running(aJob(2), 60, "n1").build(),
            aJob(3).setState(JobState.JOB_STATE_COMPLETED).build(),
            running(aJob(4), 60, "n2").setState(JobState.JOB_STATE_CANCELLED).setCompleting(true).build(),
            aJob(5).setSpec(JobSpec.newBuilder().setUser("bob").setName("b")).setPartition("long")
                    .setState(JobState.JOB_STATE_SUSPENDED).build(),
            aJob(6).setPartition("long").setSpec(aJob(6).getSpec().toBuilder().addPartitions("long").addPartitions("gpu"))
                    .build()));

    private static List<String> ids(JobFilter filter) {
        return new QueueReport(JobFormat.parse("%i"), JobOrder.parse("i"), filter, false)
                .lines(JOBS, NOW, ZoneOffset.UTC);
    }

    @Test
    void withoutFiltersShowsPendingRunningSuspendedAndCompleting() {
        assertEquals(List.of("1", "2", "4", "5", "6"), ids(new JobFilter(Set.of(), Set.of(), Set.of(), null)));
    }

    @Test
    void aJobListShowsItsJobsInAnyState() {
        assertEquals(List.of("1", "3"), ids(new JobFilter(Set.of(1L, 3L), Set.of(), Set.of(), null)));
    }

    @Test
    void statesUsersAndPartitionsNarrowTheList() {
        assertEquals(List.of("3"), ids(new JobFilter(Set.of(), Set.of(), Set.of(), JobStates.parse("CD"))));
        assertEquals(List.of("5"), ids(new JobFilter(Set.of(), Set.of("bob"), Set.of(), null)));
        assertEquals(List.of("5", "6"), ids(new JobFilter(Set.of(), Set.of(), Set.of("long"), null)));
    }

    @Test
    void aPendingJobMatchesAnyPartitionItMayRunIn() {
        assertEquals(List.of("6"), ids(new JobFilter(Set.of(), Set.of(), Set.of("gpu"), null)));
    }

    @Test
    void theHeaderComesFirstUnlessSuppressed() {
        QueueReport report = new QueueReport(JobFormat.parse("%.5i"), JobOrder.parse("-i"),
                new JobFilter(Set.of(1L, 2L), Set.of(), Set.of(), null), true);
        assertEquals(List.of("JOBID", "    2", "    1"), report.lines(JOBS, NOW, ZoneOffset.UTC));
    }
}
