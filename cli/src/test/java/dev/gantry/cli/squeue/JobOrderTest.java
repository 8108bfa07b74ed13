package dev.gantry.cli.squeue;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.Job;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobOrderTest {

    private static final List<Job> JOBS = List.of(
            aJob(1).setPartition("long").setPriority(10).build(),
            running(aJob(2).setPartition("debug").setPriority(5), 300, "n2").build(),
            aJob(3).setPartition("debug").setPriority(50).build(),
            aJob(4).setPartition("debug").setPriority(70).build(),
            running(aJob(5).setPartition("debug").setPriority(1), 100, "n10").build());

    private static List<Long> order(String spec) {
        return JOBS.stream().map(j -> new JobView(JobInfos.job(j), NOW, ZoneOffset.UTC))
                .sorted(JobOrder.parse(spec).comparator())
                .map(v -> v.job().jobId())
                .toList();
    }

    @Test
    void slurmsDefaultIsPartitionThenStateThenHighestPriority() {
        // debug before long; within debug PD before R (compact codes compare as text); priority high to low
        assertEquals(List.of(4L, 3L, 2L, 5L, 1L), order(JobOrder.DEFAULT));
    }

    @ParameterizedTest(name = "-S {0} orders {1}")
    @CsvSource(delimiter = '|', value = {
        "i      | 1,2,3,4,5",
        "-i     | 5,4,3,2,1",
        "+i     | 1,2,3,4,5",
        "-p     | 4,3,1,2,5",
        "M      | 1,3,4,5,2",
        "-M,i   | 2,5,1,3,4",
        "Pi     | 2,3,4,5,1",
        "t,-i   | 4,3,1,5,2",
        "N      | 1,3,4,2,5",
    })
    void sortSpecifications(String spec, String expected) {
        List<Long> ids = java.util.Arrays.stream(expected.split(",")).map(Long::valueOf).toList();
        assertEquals(ids, order(spec));
    }

    @Test
    void tiesEndOnTheJobId() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), order("u"));
    }

    @Test
    void unknownFieldsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobOrder.parse("P,Y"));
        assertEquals("Invalid sort specification: Y", e.getMessage());
    }
}
