package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.GresRequest;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.select.fixture.Shares;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.PropertyClusters.NodeSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * No allocation ever exceeds a node's cores, memory or GPUs — with OverSubscribe FORCE:n/YES:n a unit is held by at
 * most n jobs, all of one partition — over random clusters (sockets × cores × threads, memory, GPU pools), partitions
 * with every OverSubscribe kind, select modes, and two batches: the second planned on a view holding the first's
 * starts as allocations (with their core ids). A job with --exclusive (or in an EXCLUSIVE partition) shares its nodes
 * with no other job.
 */
class AllocationInvariantsTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();


    record JobSpec(long id, String partition, int nodes, int tasks, int cpusPerTask, long mem, long memPerCpu, int gpus,
                   boolean exclusive, boolean oversubscribe) {}

    record Scenario(String parameters, boolean linear, List<NodeSpec> nodes, String shareP, String shareQ,
                    List<JobSpec> first, List<JobSpec> second) {}

    @Property(tries = 400)
    void noUnitMemoryOrGpuIsOverAllocated(@ForAll("scenarios") Scenario scenario) {
        ReplicaView empty = view(scenario, List.of());
        List<JobAllocation> held = starts(planner.plan(empty, requests(scenario.first()), false), scenario.first());
        ReplicaView loaded = view(scenario, held);
        List<JobAllocation> all = new ArrayList<>(held);
        all.addAll(starts(planner.plan(loaded, requests(scenario.second()), false), scenario.second()));

        check(loaded, all);
        Set<Long> exclusive = new java.util.HashSet<>();
        for (JobSpec j : java.util.stream.Stream.concat(scenario.first().stream(), scenario.second().stream()).toList()) {
            String share = j.partition().equals("p") ? scenario.shareP() : scenario.shareQ();
            if ((j.exclusive() || share.equals("EXCLUSIVE")) && !scenario.linear()) {
                exclusive.add(j.id());
            }
        }
        for (JobAllocation a : all) {
            if (exclusive.contains(a.jobId())) {
                for (NodeAllotment s : a.nodes()) {
                    long others = all.stream().filter(b -> b.jobId() != a.jobId())
                            .filter(b -> b.nodes().stream().anyMatch(x -> x.node().equals(s.node()))).count();
                    assertTrue(others == 0, "job " + a.jobId() + " has " + s.node() + " exclusively, yet " + others + " others share it");
                }
            }
        }
    }

    private static void check(ReplicaView view, List<JobAllocation> allocations) {
        for (int i = 0; i < view.nodeCount(); i++) {
            ClusterNode node = view.node(i);
            int units = view.settings().unit() == dev.gantry.placement.ResourceUnit.NODE ? 1
                    : view.settings().unit() == dev.gantry.placement.ResourceUnit.CORE ? node.cores() : node.cpus();
            int[] holders = new int[units];
            Map<Integer, String> partitionOf = new HashMap<>();
            long memory = 0;
            int gpus = 0;
            for (JobAllocation a : allocations) {
                int maxShare = view.partition(a.partition()).orElseThrow().oversubscribe().jobs();
                for (NodeAllotment s : a.nodes()) {
                    if (!s.node().equals(node.name())) {
                        continue;
                    }
                    BitSet u = s.units();
                    assertTrue(u.length() <= units, "unit id beyond the node's " + units + " units: " + s);
                    long perUnit = units == 1 ? node.cpus() : node.cpus() / units;
                    assertTrue(u.cardinality() * perUnit >= s.cpus(), "fewer units than the CPUs given: " + s);
                    for (int k = u.nextSetBit(0); k >= 0; k = u.nextSetBit(k + 1)) {
                        holders[k]++;
                        assertTrue(holders[k] <= maxShare, "unit " + k + " of " + node.name() + " held by " + holders[k]
                                + " jobs, partition " + a.partition() + " allows " + maxShare);
                        String before = partitionOf.putIfAbsent(k, a.partition());
                        assertTrue(before == null || before.equals(a.partition()), "unit shared across partitions: " + s);
                    }
                    memory += s.memoryMb();
                    gpus += s.gres().values().stream().mapToInt(Integer::intValue).sum();
                }
            }
            if (view.settings().memoryTracked()) {
                assertTrue(memory <= node.realMemoryMb(), "memory over-allocated on " + node.name() + ": " + memory);
            }
            assertTrue(gpus <= node.gres().total("gpu", ""), "GPUs over-allocated on " + node.name() + ": " + gpus);
        }
    }

    private static List<JobAllocation> starts(List<Placement> placements, List<JobSpec> jobs) {
        List<JobAllocation> out = new ArrayList<>();
        for (int i = 0; i < placements.size(); i++) {
            if (placements.get(i) instanceof Placement.Start start) {
                out.add(new JobAllocation(start.jobId(), start.partition(), start.nodes(), false, null, jobs.get(i).exclusive()));
            }
        }
        return out;
    }

    private static List<ResourceRequest> requests(List<JobSpec> jobs) {
        return jobs.stream().map(j -> new ResourceRequest(j.id(), List.of(j.partition()), j.nodes(), j.nodes(), j.tasks(),
                j.cpusPerTask(), j.memPerCpu() > 0 ? 0 : j.mem(), JobOptions.NONE.withMemPerCpu(j.memPerCpu())
                .withGres(j.gpus() > 0 ? List.of(new GresRequest("gpu", "", j.gpus())) : List.of())
                .withExclusive(j.exclusive()).withOversubscribe(j.oversubscribe()))).toList();
    }

    private static ReplicaView view(Scenario s, List<JobAllocation> allocations) {
        return PropertyClusters.view(s.parameters(), s.linear(), s.nodes(), (all, half) -> List.of(
                        new ClusterPartition("p", PartitionState.UP, all, Shares.oversubscribe(s.shareP()), MemoryLimits.NONE, 1),
                        new ClusterPartition("q", PartitionState.UP, half, Shares.oversubscribe(s.shareQ()), MemoryLimits.NONE, 1)),
                allocations);
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<NodeSpec> node = Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(1, 2), Arbitraries.longs().between(0, 4000), Arbitraries.integers().between(0, 4))
                .as(NodeSpec::new);
        Arbitrary<String> share = Arbitraries.of("NO", "YES:2", "FORCE:2", "FORCE:3", "EXCLUSIVE");
        // memory: none, --mem 100, --mem 1500, --mem-per-cpu 300; flags: bit 0 --exclusive, bit 1 --oversubscribe.
        Arbitrary<JobSpec> job = Combinators.combine(Arbitraries.longs().between(1, 100_000), Arbitraries.of("p", "q"),
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 2),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 2), Arbitraries.of(0, 0, 0, 1, 2, 3))
                .as((id, partition, nodes, tasks, cpt, memory, gpus, flags) -> new JobSpec(id, partition, nodes, tasks, cpt,
                        memory == 1 ? 100 : memory == 2 ? 1500 : 0, memory == 3 ? 300 : 0, gpus, (flags & 1) != 0,
                        (flags & 2) != 0));
        return Combinators.combine(Arbitraries.of("CR_Core", "CR_CPU", "CR_Core_Memory", "CR_CPU_Memory"),
                Arbitraries.of(false, false, true), node.list().ofMinSize(1).ofMaxSize(5), share, share,
                job.list().ofMaxSize(10).uniqueElements(JobSpec::id), job.list().ofMaxSize(10).uniqueElements(JobSpec::id))
                .as((parameters, linear, nodes, p, q, first, second) -> new Scenario(linear ? "CR_Memory" : parameters, linear,
                        nodes, p, q, first, second.stream().map(j -> new JobSpec(j.id() + 200_000, j.partition(), j.nodes(),
                        j.tasks(), j.cpusPerTask(), j.mem(), j.memPerCpu(), j.gpus(), j.exclusive(), j.oversubscribe())).toList()));
    }
}
