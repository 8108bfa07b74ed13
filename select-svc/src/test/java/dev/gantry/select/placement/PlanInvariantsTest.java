package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.SelectSettings;
import dev.gantry.select.fixture.ClusterFixture;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.Replica;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.runtime.ReplicaInputs;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of any Plan, over random clusters, existing allocations and batches: it never gives out more CPUs or
 * memory than a node has (counting existing allocations and the placements before it in the same batch), and every
 * start respects the request and the partition.
 */
class PlanInvariantsTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** A node and how much of it existing jobs already hold (never more than it has). */
    record NodeSpec(int cpus, long memoryMb, int weight, NodeState state, boolean drain, int usedCpus, long usedMemoryMb) {}

    record Scenario(List<NodeSpec> nodes, List<ResourceRequest> requests, boolean linear, boolean stopAtFirstBlocked) {}

    @Property(tries = 500)
    void aPlanNeverAllocatesMoreThanANodeHas(@ForAll("scenarios") Scenario scenario) {
        ReplicaView view = replica(scenario).view();
        List<Placement> placements = planner.plan(view, scenario.requests(), scenario.stopAtFirstBlocked());

        long[] cpus = new long[view.nodeCount()];
        long[] memory = new long[view.nodeCount()];
        for (int i = 0; i < view.nodeCount(); i++) {
            cpus[i] = view.usedCpus(i);
            memory[i] = view.usedMemoryMb(i);
        }
        for (Placement placement : placements) {
            if (placement instanceof Placement.Start start) {
                for (NodeAllotment share : start.nodes()) {
                    int at = view.indexOf(share.node());
                    cpus[at] += share.cpus();
                    memory[at] += share.memoryMb();
                }
            }
        }
        for (int i = 0; i < view.nodeCount(); i++) {
            assertTrue(cpus[i] <= view.node(i).cpus(), "CPUs over-allocated on " + view.node(i) + ": " + cpus[i]);
            assertTrue(memory[i] <= view.node(i).realMemoryMb(), "memory over-allocated on " + view.node(i) + ": " + memory[i]);
        }
    }

    @Property(tries = 500)
    void everyStartRespectsItsRequestAndPartition(@ForAll("scenarios") Scenario scenario) {
        ReplicaView view = replica(scenario).view();
        List<Placement> placements = planner.plan(view, scenario.requests(), scenario.stopAtFirstBlocked());

        assertEquals(scenario.requests().stream().map(ResourceRequest::jobId).toList(),
                placements.stream().map(Placement::jobId).toList());
        for (int i = 0; i < placements.size(); i++) {
            ResourceRequest request = scenario.requests().get(i);
            if (placements.get(i) instanceof Placement.Start start) {
                ClusterPartition partition = view.partition(start.partition()).orElseThrow();
                assertTrue(request.partitions().contains(start.partition()));
                assertTrue(partition.state().startsJobs());
                assertTrue(start.nodes().size() >= request.minNodes() && start.nodes().size() <= request.maxNodes());
                Set<String> distinct = new HashSet<>();
                long total = 0;
                for (NodeAllotment share : start.nodes()) {
                    assertTrue(distinct.add(share.node()), "a node twice in " + start);
                    assertTrue(partition.nodes().contains(share.node()), share.node() + " not in " + partition);
                    assertTrue(view.node(view.indexOf(share.node())).usable(), share.node() + " is not usable");
                    assertEquals(request.memPerNodeMb(), share.memoryMb());
                    total += share.cpus();
                }
                assertTrue(total >= request.totalCpus(), "fewer CPUs than tasks × cpus_per_task: " + start);
            }
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<NodeSpec> node = Combinators.combine(
                Arbitraries.integers().between(1, 16),
                Arbitraries.longs().between(0, 8192),
                Arbitraries.integers().between(0, 3),
                Arbitraries.of(NodeState.NODE_STATE_IDLE, NodeState.NODE_STATE_MIXED, NodeState.NODE_STATE_IDLE,
                        NodeState.NODE_STATE_DOWN, NodeState.NODE_STATE_UNKNOWN),
                Arbitraries.of(false, false, false, true),
                Arbitraries.integers().between(0, 100),
                Arbitraries.integers().between(0, 100)
        ).as((cpus, memory, weight, state, drain, cpuPercent, memoryPercent) ->
                new NodeSpec(cpus, memory, weight, state, drain, cpus * cpuPercent / 100, memory * memoryPercent / 100));
        return Combinators.combine(
                node.list().ofMinSize(1).ofMaxSize(8),
                request().list().ofMinSize(1).ofMaxSize(12).uniqueElements(ResourceRequest::jobId),
                Arbitraries.of(false, true),
                Arbitraries.of(false, true)
        ).as(Scenario::new);
    }

    private static Arbitrary<ResourceRequest> request() {
        return Combinators.combine(
                Arbitraries.longs().between(1, 1_000),
                Arbitraries.of(List.of("all"), List.of("even"), List.of("third", "all"), List.of("even", "down"), List.of("down")),
                Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(1, 24),
                Arbitraries.integers().between(1, 4),
                Arbitraries.of(0L, 0L, 100L, 1000L, 4096L)
        ).as((jobId, partitions, minNodes, extraNodes, tasks, cpusPerTask, memory) ->
                new ResourceRequest(jobId, partitions, minNodes, minNodes + extraNodes, tasks, cpusPerTask, memory));
    }

    /** Partitions: "all" nodes, "even" ones, every "third" one, and a DOWN partition over all of them. */
    private static Replica replica(Scenario scenario) {
        ClusterSnapshot.Builder snapshot = ClusterSnapshot.newBuilder()
                .setSelect(SelectSettings.newBuilder().setSelectType(scenario.linear() ? "select/linear" : "select/cons_tres"));
        List<String> names = IntStream.range(0, scenario.nodes().size()).mapToObj(i -> "n" + i).toList();
        for (int i = 0; i < names.size(); i++) {
            NodeSpec spec = scenario.nodes().get(i);
            snapshot.addNodes(Node.newBuilder().setName(names.get(i)).setCpus(spec.cpus()).setRealMemoryMb(spec.memoryMb())
                    .setWeight(spec.weight()).setState(spec.state()).setDrain(spec.drain()));
            if (spec.usedCpus() > 0 || spec.usedMemoryMb() > 0) {
                snapshot.addAllocations(ClusterFixture.allocation(10_000 + i, "all", false,
                        ClusterFixture.share(names.get(i), spec.usedCpus(), spec.usedMemoryMb())));
            }
        }
        snapshot.addPartitions(partition("all", PartitionState.PARTITION_STATE_UP, names));
        snapshot.addPartitions(partition("even", PartitionState.PARTITION_STATE_UP,
                IntStream.range(0, names.size()).filter(i -> i % 2 == 0).mapToObj(names::get).toList()));
        snapshot.addPartitions(partition("third", PartitionState.PARTITION_STATE_UP,
                IntStream.range(0, names.size()).filter(i -> i % 3 == 0).mapToObj(names::get).toList()));
        snapshot.addPartitions(partition("down", PartitionState.PARTITION_STATE_DOWN, names));
        return ReplicaInputs.replica(ClusterFixture.EPOCH, 1, snapshot.build());
    }

    private static Partition partition(String name, PartitionState state, List<String> nodes) {
        return Partition.newBuilder().setName(name).setState(state).addAllNodes(nodes).build();
    }
}
