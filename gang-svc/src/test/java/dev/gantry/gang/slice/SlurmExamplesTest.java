package dev.gantry.gang.slice;

import dev.gantry.common.overlap.OverlapRule;
import static dev.gantry.gang.slice.VirtualCluster.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The select/linear examples of Slurm's gang scheduling document (https://slurm.schedmd.com/gang_scheduling.html,
 * "A Simple Example" and "More examples"), on five nodes n[12-16] with OverSubscribe=FORCE and PreemptMode=GANG.
 * Each step is "action -> jobs running (R) and suspended (S) afterwards"; actions are "start JOB HOSTLIST" and
 * "slice" (one SchedulerTimeSlice elapses). A job that started between slices keeps its place through the next one
 * (Slurm's GS_FILLER), so the first swap comes one to two slices after an overlapping job arrived, as on real Slurm.
 */
class SlurmExamplesTest {

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("two 5-node jobs alternate every slice", List.of(
                        "start 3 n[12-16] -> R 3",
                        "start 4 n[12-16] -> R 3 S 4",
                        "slice -> R 3 S 4",
                        "slice -> R 4 S 3",
                        "slice -> R 3 S 4",
                        "slice -> R 4 S 3",
                        "slice -> R 3 S 4")),
                Arguments.of("jobs of 3, 2 and 3 nodes: the 2-node job runs continuously", List.of(
                        "start 9 n[12-14] -> R 9",
                        "start 10 n[15-16] -> R 9 10",
                        "start 11 n[12-14] -> R 9 10 S 11",
                        "slice -> R 9 10 S 11",
                        "slice -> R 10 11 S 9",
                        "slice -> R 9 10 S 11",
                        "slice -> R 10 11 S 9",
                        "slice -> R 9 10 S 11")),
                Arguments.of("local backfilling: the 2-node job runs beside the 3-node one", List.of(
                        "start 12 n[12-14] -> R 12",
                        "start 13 n[12-16] -> R 12 S 13",
                        "start 14 n[15-16] -> R 12 14 S 13",
                        "slice -> R 12 14 S 13",
                        "slice -> R 13 S 12 14",
                        "slice -> R 12 14 S 13",
                        "slice -> R 13 S 12 14")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void rotatesAsSlurmDocuments(String example, List<String> steps) {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        for (String step : steps) {
            String[] parts = step.split(" -> ");
            String[] action = parts[0].split(" ");
            if (action[0].equals("start")) {
                cluster.start(Long.parseLong(action[1]), nodes(action[2]));
            } else {
                cluster.slice();
            }
            assertEquals(parts[1], cluster.state(), step);
        }
    }

    @ParameterizedTest(name = "a job that overlaps nobody is never suspended: job {0}")
    @MethodSource("neverSuspended")
    void aJobThatOverlapsNobodyIsNeverSuspended(long job, List<String> starts) {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        for (String start : starts) {
            String[] parts = start.split(" ");
            cluster.start(Long.parseLong(parts[0]), nodes(parts[1]));
        }
        for (int slice = 0; slice < 50; slice++) {
            cluster.slice();
            assertTrue(cluster.running().contains(job), "slice " + slice + ": " + cluster.state());
        }
    }

    static Stream<Arguments> neverSuspended() {
        return Stream.of(
                Arguments.of(10L, List.of("9 n[12-14]", "10 n[15-16]", "11 n[12-14]")),
                Arguments.of(7L, List.of("5 n[12-13]", "6 n[12-13]", "7 n[14-16]", "8 n12")));
    }

    @Test
    void aNewOverlappingJobIsSuspendedAtOnce_asADecision() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        cluster.start(1, nodes("n[12-16]"));

        SliceOutcome outcome = cluster.start(2, nodes("n[12-13]"));

        assertEquals(List.of(new PartitionDecision("active", List.of(2L), List.of())), outcome.decisions());
    }
}
