package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random starts, ends, slices and restarts in two partitions of different PriorityTier on the same four nodes
 * (select/linear). After every step: a running job shares no node with another running job of its partition nor
 * with a running job of the higher tier (shadows), and every suspended job shares a node with such a job (nobody is
 * suspended for nothing).
 */
class ShadowPropertyTest {

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, 200).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void shadowsAndSlicesNeverOverlapAndNeverIdle(long seed) {
        Random random = new Random(seed);
        List<String> names = Hostlist.expand("n[1-4]");
        Map<String, Integer> tier = Map.of("low", 1, "high", 2);
        VirtualCluster cluster = new VirtualCluster(new GangSettings(true, Duration.ofSeconds(5)), new OverlapRule.WholeNodes(),
                names.stream().map(n -> new NodeShape(n, 8, 4)).toList(),
                List.of(new PartitionShape("low", 1, true), new PartitionShape("high", 2, true)));
        Map<Long, Set<String>> holds = new HashMap<>();
        Map<Long, String> partitionOf = new HashMap<>();
        long nextJob = 1;
        for (int step = 0; step < 120; step++) {
            int roll = random.nextInt(10);
            if (roll < 3 && holds.size() < 8) {
                Set<String> nodes = new HashSet<>();
                int count = 1 + random.nextInt(3);
                while (nodes.size() < count) {
                    nodes.add(names.get(random.nextInt(names.size())));
                }
                String partition = random.nextInt(3) == 0 ? "high" : "low";
                holds.put(nextJob, nodes);
                partitionOf.put(nextJob, partition);
                cluster.start(nextJob++, partition, nodes.stream().map(n -> new NodeHold(n, 8, List.of())).toList());
            } else if (roll < 5 && !holds.isEmpty()) {
                long job = new ArrayList<>(holds.keySet()).get(random.nextInt(holds.size()));
                holds.remove(job);
                cluster.end(job);
            } else if (roll < 6) {
                cluster.restart(true);
            } else {
                cluster.slice();
            }
            String at = "seed " + seed + " step " + step + ": " + cluster.state() + " in " + partitionOf;
            for (long a : cluster.running()) {
                for (long b : cluster.running()) {
                    boolean blocks = a != b && tier.get(partitionOf.get(b)) >= tier.get(partitionOf.get(a))
                            && (partitionOf.get(a).equals(partitionOf.get(b)) || tier.get(partitionOf.get(b)) > tier.get(partitionOf.get(a)));
                    assertTrue(!blocks || Collections.disjoint(holds.get(a), holds.get(b)), at + ": " + a + " runs beside " + b);
                }
            }
            for (long s : cluster.suspended()) {
                boolean blocked = cluster.running().stream().anyMatch(r -> !Collections.disjoint(holds.get(r), holds.get(s))
                        && (partitionOf.get(r).equals(partitionOf.get(s)) || tier.get(partitionOf.get(r)) > tier.get(partitionOf.get(s))));
                assertTrue(blocked, at + ": " + s + " is suspended for nothing");
            }
        }
    }
}
