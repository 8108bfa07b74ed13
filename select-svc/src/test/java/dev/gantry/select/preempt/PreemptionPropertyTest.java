package dev.gantry.select.preempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.PartitionState;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.model.SelectSettings;
import dev.gantry.select.model.Topology;
import dev.gantry.select.placement.JobOptions;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * On random clusters full of preemptable jobs, the default policy finds a start whenever Slurm's baseline does, never
 * preempts more CPUs than it, and its victims really make room (the job starts with exactly them gone).
 */
class PreemptionPropertyTest {

    private final PreemptionPolicy gantry = new LeastPreemptionPolicy();
    private final PreemptionPolicy slurm = new SlurmTwoStagePolicy();

    @Property(tries = 300)
    void neverPreemptsMoreThanTheSlurmBaseline(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        PreemptionCase c = PreemptionCase.random(new Random(seed));
        StartTrial trial = new StartTrial(c.view());

        Optional<PreemptingPlacement> baseline = slurm.place(trial, c.job(), c.preemptable());
        Optional<PreemptingPlacement> ours = gantry.place(trial, c.job(), c.preemptable());

        assertEquals(baseline.isPresent(), ours.isPresent(), "both find a start, or neither");
        if (ours.isPresent()) {
            assertTrue(ours.get().preemptedCpus() <= baseline.get().preemptedCpus(),
                    "default preempts " + ours.get() + ", baseline " + baseline.get());
            assertTrue(c.preemptable().containsAll(ours.get().victims()), "only preemptable jobs are victims");
            assertTrue(trial.startWithout(c.job(), ours.get().victims()).isPresent(), "the victims make room");
        }
    }

    /** A random cluster (cons_tres CR_Core or linear) with running jobs, a pending job and a preemptable order. */
    record PreemptionCase(ReplicaView view, ResourceRequest job, List<Long> preemptable) {

        static PreemptionCase random(Random random) {
            boolean linear = random.nextInt(4) == 0;
            int nodeCount = 2 + random.nextInt(9);
            List<ClusterNode> nodes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            int[] free = new int[nodeCount];
            for (int i = 0; i < nodeCount; i++) {
                int cpus = 1 << (1 + random.nextInt(3));
                nodes.add(new ClusterNode("n" + i, cpus, 0, weight(random), true));
                names.add("n" + i);
                free[i] = cpus;
            }
            List<JobAllocation> allocations = new ArrayList<>();
            List<Long> preemptable = new ArrayList<>();
            for (long id = 1; id <= 3 * nodeCount; id++) {
                int width = 1 + random.nextInt(Math.min(3, nodeCount));
                int start = random.nextInt(nodeCount);
                int cpus = linear ? 0 : 1 + random.nextInt(4);
                List<NodeAllotment> shares = new ArrayList<>();
                for (int k = 0; k < width; k++) {
                    int n = (start + k) % nodeCount;
                    int want = linear ? nodes.get(n).cpus() : cpus;
                    if (free[n] >= want && (!linear || free[n] == nodes.get(n).cpus())) {
                        shares.add(new NodeAllotment(names.get(n), want, 0));
                    }
                }
                if (shares.size() == width) {
                    shares.forEach(s -> free[names.indexOf(s.node())] -= s.cpus());
                    allocations.add(new JobAllocation(id, "low", shares, false));
                    if (random.nextInt(5) != 0) {
                        preemptable.add(id);
                    }
                }
            }
            java.util.Collections.shuffle(preemptable, random);
            int jobNodes = 1 + random.nextInt(Math.min(4, nodeCount));
            ResourceRequest job = new ResourceRequest(999_999, List.of("high"), jobNodes, jobNodes,
                    jobNodes * (1 + random.nextInt(4)), 1, 0, JobOptions.NONE);
            ReplicaView view = ReplicaView.of("e", 1,
                    new SelectSettings(linear ? SelectMode.LINEAR : SelectMode.CONS_TRES, linear ? "" : "CR_Core"), nodes,
                    List.of(new ClusterPartition("low", PartitionState.UP, names), new ClusterPartition("high", PartitionState.UP, names)),
                    allocations, Topology.NONE);
            return new PreemptionCase(view, job, preemptable);
        }

        private static int weight(Random random) {
            return random.nextInt(3) == 0 ? 2 : 1;
        }
    }
}
