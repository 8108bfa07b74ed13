package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import static dev.gantry.gang.slice.VirtualCluster.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** gang-svc holds nothing durable: rebuilt from a snapshot, rotation continues and no job starves. */
class RestartFairnessTest {

    @Test
    void rotationContinuesAfterARestart() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        cluster.start(3, nodes("n[12-16]"));
        cluster.start(4, nodes("n[12-16]"));
        cluster.slice();
        cluster.slice();
        assertEquals("R 4 S 3", cluster.state());

        SliceOutcome rebuilt = cluster.restart(false);
        assertEquals(List.of(), rebuilt.decisions());
        assertEquals("R 4 S 3", cluster.state());

        cluster.slice();
        assertEquals("R 3 S 4", cluster.state());
    }

    @Test
    void aRestartResumesAWaitingJobWhoseBlockerEndedMeanwhile_andSuspendsOverlapsStartedMeanwhile() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.restart(false);
        assertEquals("R 1 S 2", cluster.state());
    }

    /** Restarted after every slice, with the suspension times the controller reports, each job still runs every third slice. */
    @Test
    void withSuspensionTimes_restartsAfterEverySliceStarveNobody() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());
        for (long job = 1; job <= 3; job++) {
            cluster.start(job, nodes("n[12-16]"));
        }
        Map<Long, Integer> waited = new HashMap<>();
        for (int slice = 0; slice < 30; slice++) {
            cluster.slice();
            cluster.restart(true);
            for (long job = 1; job <= 3; job++) {
                int w = cluster.running().contains(job) ? 0 : waited.getOrDefault(job, 0) + 1;
                waited.put(job, w);
                assertTrue(w <= 2, "job " + job + " waited " + w + " slices at slice " + slice);
            }
        }
    }

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, 200).boxed();
    }

    /**
     * Random starts, ends, slices and restarts on four nodes (select/linear), at most six jobs: after every step no two
     * running jobs share a node, every suspended job shares a node with a running one, and no job waits suspended
     * for more whole slices than there are jobs (each job ahead of it once, plus one: a job that started or resumed
     * between slices keeps its place through the next one).
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomSequences_neverOverlapNeverIdleNeverStarve(long seed) {
        Random random = new Random(seed);
        List<String> names = Hostlist.expand("n[1-4]");
        VirtualCluster cluster = new VirtualCluster(new GangSettings(true, Duration.ofSeconds(5)), new OverlapRule.WholeNodes(),
                names.stream().map(n -> new NodeShape(n, 8, 4)).toList(), List.of(new PartitionShape("p", 1, true)));
        Map<Long, Set<String>> holds = new HashMap<>();
        Map<Long, Integer> waited = new HashMap<>();
        Set<Long> ran = new HashSet<>();  // jobs seen running since the last slice
        long nextJob = 1;
        for (int step = 0; step < 150; step++) {
            int roll = random.nextInt(10);
            String did;
            if (roll < 3 && holds.size() < 6) {
                Set<String> nodes = new HashSet<>();
                int count = 1 + random.nextInt(names.size());
                while (nodes.size() < count) {
                    nodes.add(names.get(random.nextInt(names.size())));
                }
                holds.put(nextJob, nodes);
                did = "start " + nextJob + " " + nodes;
                cluster.start(nextJob++, nodes.stream().map(n -> new NodeHold(n, 8, List.of())).toList());
            } else if (roll < 4 && !holds.isEmpty()) {
                long job = new ArrayList<>(holds.keySet()).get(random.nextInt(holds.size()));
                holds.remove(job);
                waited.remove(job);
                did = "end " + job;
                cluster.end(job);
            } else if (roll < 5) {
                did = "restart";
                cluster.restart(true);
            } else {
                did = "slice";
                for (long job : holds.keySet()) {
                    int w = ran.contains(job) ? 0 : waited.getOrDefault(job, 0) + 1;
                    waited.put(job, w);
                    assertTrue(w < 7, "seed " + seed + " step " + step + ": job " + job + " waited " + w + " whole slices");
                }
                ran.clear();
                cluster.slice();
            }
            ran.addAll(cluster.running());
            String at = "seed " + seed + " step " + step + " (" + did + "): " + cluster.state();
            for (long a : cluster.running()) {
                for (long b : cluster.running()) {
                    assertTrue(a == b || java.util.Collections.disjoint(holds.get(a), holds.get(b)), at + ": " + a + " and " + b + " share a node");
                }
            }
            for (long s : cluster.suspended()) {
                assertTrue(cluster.running().stream().anyMatch(r -> !java.util.Collections.disjoint(holds.get(r), holds.get(s))),
                        at + ": " + s + " is suspended beside nobody");
            }
        }
    }
}
