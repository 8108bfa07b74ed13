package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresRequest;
import dev.gantry.placement.HeldShare;
import dev.gantry.placement.JobSizing;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.placement.NodeUse;
import dev.gantry.placement.OfferedShare;
import dev.gantry.placement.Owner;
import dev.gantry.placement.ProposalCheck;
import dev.gantry.placement.ResourceUnit;
import dev.gantry.placement.Sharing;
import dev.gantry.select.fixture.Shares;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.placement.PropertyClusters.NodeSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Validation accepts every placement the planner proposes: each start of a Plan, checked in plan order against the
 * cluster as it is then (the jobs already running plus the starts before it), passes the placement core's
 * {@link ProposalCheck} — the check scheduler-svc's PlacementCheck runs before it acts — over random clusters (sockets
 * × cores × threads, memory, GPU pools), partitions with every OverSubscribe kind, memory defaults and MaxMemPerCPU,
 * ExclusiveUser, select modes and SelectTypeParameters, and jobs with --exclusive, --exclusive=user, --oversubscribe,
 * --mem, --mem-per-cpu, --ntasks-per-node and GPUs. The allocations are handed to the check as scheduler-svc holds them
 * (core ids under CR_Core only, GRES by name and type).
 */
class ProposalValidationPropertyTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();


    record JobSpec(long id, String partition, int nodes, int tasks, int cpusPerTask, long mem, long memPerCpu, int gpus,
                   int flags, int perNode) {

        boolean exclusive() {
            return (flags & 1) != 0;
        }

        boolean oversubscribe() {
            return (flags & 2) != 0;
        }

        Owner owner() {
            return new Owner((flags & 4) != 0 ? "bob" : "alice", (flags & 8) != 0);
        }
    }

    record Scenario(String parameters, boolean linear, List<NodeSpec> nodes, String shareP, String shareQ,
                    MemoryLimits memoryP, boolean exclusiveUserQ, List<JobSpec> first, List<JobSpec> second) {}

    @Property(tries = 500)
    void everyProposedStartPassesValidation(@ForAll("scenarios") Scenario scenario) {
        List<JobAllocation> running = starts(planner.plan(view(scenario, List.of()), requests(scenario.first()), false),
                scenario.first());
        ReplicaView view = view(scenario, running);
        List<Placement> plan = planner.plan(view, requests(scenario.second()), false);
        List<JobAllocation> held = new ArrayList<>(running);
        for (int i = 0; i < plan.size(); i++) {
            if (plan.get(i) instanceof Placement.Start start) {
                JobSpec job = scenario.second().get(i);
                assertEquals(Optional.empty(), validate(view, held, job, start), () -> "job " + job + " placed " + start.nodes());
                held.add(allocation(start, job));
            }
        }
    }

    /** What scheduler-svc's PlacementCheck asks of the core, with the replica's state mapped as the controller holds it. */
    private static Optional<String> validate(ReplicaView view, List<JobAllocation> held, JobSpec job, Placement.Start start) {
        ClusterPartition p = view.partition(start.partition()).orElseThrow();
        boolean linear = view.settings().mode() == SelectMode.LINEAR;
        ResourceRequest request = request(job);
        ProposalCheck.JobTerms terms = new ProposalCheck.JobTerms(p.name(), request.minNodes(), request.maxNodes(),
                JobSizing.of(request.numTasks(), request.cpusPerTask(), request.options().ntasksPerNode(),
                        request.options().memPerCpuMb(), request.memPerNodeMb(), p.memory()),
                Sharing.of(p.oversubscribe().wholeNodes(), p.oversubscribe().maxShare(job.oversubscribe()), job.exclusive(),
                        linear), request.options().gres(),
                job.owner().orExclusive(p.exclusiveUser()), new HashSet<>(p.nodes()), List.of(), Set.of());
        List<OfferedShare> offered = start.nodes().stream().map(s -> offered(view, s)).toList();
        return ProposalCheck.check(terms, offered, name -> nodeUse(view, held, name), name -> Optional.empty());
    }

    private static NodeUse nodeUse(ReplicaView view, List<JobAllocation> held, String name) {
        ClusterNode n = view.node(view.indexOf(name));
        NodeUse use = new NodeUse(name, n, n.realMemoryMb(), n.gres().pools(), n.usable(), view.settings().consumables());
        for (JobAllocation a : held) {
            ClusterPartition p = view.partition(a.partition()).orElseThrow();
            for (NodeAllotment s : a.nodes()) {
                if (s.node().equals(name)) {
                    use.hold(new HeldShare(a.partition(), s.cpus(), s.memoryMb(), coreIds(view, s), s.gres(),
                            a.exclusive() || p.oversubscribe().wholeNodes(), a.owner().orExclusive(p.exclusiveUser()), false));
                }
            }
        }
        return use;
    }

    /** Core ids travel to scheduler-svc under CR_Core only (ProtoMapping.allocation). */
    private static BitSet coreIds(ReplicaView view, NodeAllotment s) {
        return view.settings().unit() == ResourceUnit.CORE ? s.units() : new BitSet();
    }

    private static OfferedShare offered(ReplicaView view, NodeAllotment s) {
        List<GresPool> pools = view.node(view.indexOf(s.node())).gres().pools();
        List<OfferedShare.GresTaken> gres = new ArrayList<>();
        for (Map.Entry<Integer, Integer> g : new java.util.TreeMap<>(s.gres()).entrySet()) {
            gres.add(new OfferedShare.GresTaken(pools.get(g.getKey()).name(), pools.get(g.getKey()).type(), g.getValue()));
        }
        return new OfferedShare(s.node(), s.cpus(), s.memoryMb(), coreIds(view, s).stream().boxed().toList(), gres);
    }

    private static JobAllocation allocation(Placement.Start start, JobSpec job) {
        return new JobAllocation(start.jobId(), start.partition(), start.nodes(), false, null, job.exclusive(), job.owner());
    }

    private static List<JobAllocation> starts(List<Placement> placements, List<JobSpec> jobs) {
        List<JobAllocation> out = new ArrayList<>();
        for (int i = 0; i < placements.size(); i++) {
            if (placements.get(i) instanceof Placement.Start start) {
                out.add(allocation(start, jobs.get(i)));
            }
        }
        return out;
    }

    private static ResourceRequest request(JobSpec j) {
        return new ResourceRequest(j.id(), List.of(j.partition()), j.nodes(), j.nodes(), j.tasks(), j.cpusPerTask(),
                j.memPerCpu() > 0 ? 0 : j.mem(), JobOptions.NONE.withMemPerCpu(j.memPerCpu())
                .withGres(j.gpus() > 0 ? List.of(new GresRequest("gpu", "", j.gpus())) : List.of())
                .withExclusive(j.exclusive()).withOversubscribe(j.oversubscribe()).withNtasksPerNode(j.perNode()),
                new Owner(j.owner().user(), j.owner().exclusiveUser()));
    }

    private static List<ResourceRequest> requests(List<JobSpec> jobs) {
        return jobs.stream().map(ProposalValidationPropertyTest::request).toList();
    }

    private static ReplicaView view(Scenario s, List<JobAllocation> allocations) {
        return PropertyClusters.view(s.parameters(), s.linear(), s.nodes(), (all, half) -> List.of(
                        new ClusterPartition("p", PartitionState.UP, all, Shares.oversubscribe(s.shareP()), s.memoryP(), 1),
                        new ClusterPartition("q", PartitionState.UP, half, Shares.oversubscribe(s.shareQ()), MemoryLimits.NONE,
                                1, s.exclusiveUserQ())),
                allocations);
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<NodeSpec> node = Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(1, 2), Arbitraries.longs().between(0, 4000), Arbitraries.integers().between(0, 4))
                .as(NodeSpec::new);
        Arbitrary<String> share = Arbitraries.of("NO", "YES:2", "FORCE:2", "FORCE:3", "EXCLUSIVE");
        // partition p: DefMemPerCPU none or 200, MaxMemPerCPU none or 250 (a --mem-per-cpu 300 job then gets more CPUs)
        Arbitrary<MemoryLimits> limits = Combinators.combine(Arbitraries.of(0L, 200L), Arbitraries.of(0L, 250L))
                .as((def, max) -> new MemoryLimits(def, 0, max, 0));
        // memory: none, --mem 100, --mem 1500, --mem-per-cpu 300; flags: bit 0 --exclusive, bit 1 --oversubscribe,
        // bit 2 user bob (else alice), bit 3 --exclusive=user; ntasks-per-node 0 (unset), 1 or 2.
        Arbitrary<JobSpec> job = Combinators.combine(Arbitraries.longs().between(1, 100_000), Arbitraries.of("p", "q"),
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 2),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 15))
                .as((id, partition, nodes, tasks, cpt, memory, gpus, flags) -> new JobSpec(id, partition, nodes, tasks, cpt,
                        memory == 1 ? 100 : memory == 2 ? 1500 : 0, memory == 3 ? 300 : 0, gpus, flags,
                        (int) (id % 5 == 0 ? 1 : id % 7 == 0 ? 2 : 0)));
        return Combinators.combine(Arbitraries.of("CR_Core", "CR_CPU", "CR_Core_Memory", "CR_CPU_Memory"),
                Arbitraries.of(false, false, true), node.list().ofMinSize(1).ofMaxSize(5), share, share, limits,
                Arbitraries.of(false, true), Combinators.combine(job.list().ofMaxSize(10).uniqueElements(JobSpec::id),
                        job.list().ofMaxSize(10).uniqueElements(JobSpec::id)).as(List::of))
                .as((parameters, linear, nodes, p, q, memoryP, exclusiveUserQ, batches) -> new Scenario(
                        linear ? "CR_Memory" : parameters, linear, nodes, p, q, memoryP, exclusiveUserQ, batches.get(0),
                        batches.get(1).stream().map(j -> new JobSpec(j.id() + 200_000, j.partition(), j.nodes(), j.tasks(),
                                j.cpusPerTask(), j.mem(), j.memPerCpu(), j.gpus(), j.flags(), j.perNode())).toList()));
    }
}
