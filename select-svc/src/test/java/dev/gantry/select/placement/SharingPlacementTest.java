package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.DomainCluster.linear;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where jobs go in an OverSubscribe=FORCE partition: free resources first, shared ones only when the free do not
 * suffice, then the least shared (see {@link NodeSelector}). The jobs are submitted in order, one after the other, to
 * partition "active" on n[12-16], each with --mem=100; the expected node lists are those of
 * https://slurm.schedmd.com/gang_scheduling.html and of the same jobs run on Slurm 22.05 (slurm-wlm, select/linear
 * CR_Memory or cons_tres CR_Core_Memory, PreemptMode=GANG, OverSubscribe=FORCE). Outcomes read "JOB on NODES", with
 * "units={…}" (core ids on every node) under cons_tres.
 */
class SharingPlacementTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();

    static Stream<Arguments> examples() {
        return Stream.of(
                // select/linear: whole nodes, n[12-16] of 1 CPU.
                example("gang_scheduling.html 'More examples': 9 → n[12-14], 10 → n[15-16], 11 → n[12-14] with 9",
                        linearNodes(),
                        List.of(job(9).nodes(3), job(10).nodes(2), job(11).nodes(3)),
                        "9 on n[12-14]", "10 on n[15-16]", "11 on n[12-14]"),
                example("gang_scheduling.html 'local backfilling': 12 → n[12-14], 13 → n[12-16], 14 → n[15-16]",
                        linearNodes(),
                        List.of(job(12).nodes(3), job(13).nodes(5), job(14).nodes(2)),
                        "12 on n[12-14]", "13 on n[12-16]", "14 on n[15-16]"),
                example("issue 14: a 2-node job beside a 3-node one takes the idle n[15-16], not n[12-13]",
                        linearNodes(),
                        List.of(job(1).nodes(3), job(2).nodes(2)),
                        "1 on n[12-14]", "2 on n[15-16]"),
                example("job mate: a -N2 job that must share takes the whole of the running -N2 job (Slurm 22.05)",
                        linearNodes(),
                        List.of(job(1).nodes(3), job(2).nodes(2), job(3).nodes(2)),
                        "1 on n[12-14]", "2 on n[15-16]", "3 on n[15-16]"),
                example("job mate: the first by job id, not by node (Slurm 22.05: -N2, -N2, -N1, scancel 1, -N2, -N2)",
                        linearNodes().running(2, "active", 1, 100, "n14", "n15").running(3, "active", 1, 100, "n16")
                                .running(4, "active", 1, 100, "n12", "n13"),
                        List.of(job(5).nodes(2)),
                        "5 on n[14-15]"),
                example("job mate: a suspended job is none (select_linear.c _find_job_mate: IS_JOB_RUNNING)",
                        linearNodes().running(1, "active", 1, 100, "n12", "n13", "n14")
                                .suspended(2, "active", 1, 100, "n15", "n16"),
                        List.of(job(3).nodes(2)),
                        "3 on n[12-13]"),
                example("the one idle node is not enough alone: the job shares, with job 1 (Slurm 22.05)",
                        linearNodes(),
                        List.of(job(1).nodes(2), job(2).nodes(2), job(3).nodes(2)),
                        "1 on n[12-13]", "2 on n[14-15]", "3 on n[12-13]"),
                example("no mate of that size: node order among the nodes shared least (Slurm 22.05: n[12-13])",
                        linearNodes(),
                        List.of(job(1).nodes(4), job(2).nodes(2)),
                        "1 on n[12-15]", "2 on n[12-13]"),
                example("a node holding two jobs waits until those holding one are used (Slurm 22.05)",
                        linearNodes(),
                        List.of(job(1).nodes(2), job(2).nodes(3), job(3).nodes(1), job(4).nodes(1)),
                        "1 on n[12-13]", "2 on n[14-16]", "3 on n12", "4 on n13"),
                example("best fit does not prefer a busy node to an idle one as usable (Slurm 22.05: n[12-13])",
                        linearNodes().running(2, "active", 1, 100, "n13").running(3, "active", 1, 100, "n14")
                                .running(4, "active", 1, 100, "n15").running(5, "active", 1, 100, "n16"),
                        List.of(job(6).nodes(2)),
                        "6 on n[12-13]"),

                // cons_tres CR_Core_Memory.
                example("gang_scheduling.html CR_Core_Memory: 48 and 49 share the cores of 44 and 45; 46, 47 share none",
                        consTres("CR_Core_Memory").node("n12", 8, 2, 4, 1, 1000).node("n13", 8, 2, 4, 1, 1000)
                                .node("n14", 8, 2, 4, 1, 1000).node("n15", 8, 2, 4, 1, 1000).node("n16", 8, 2, 4, 1, 1000)
                                .partition("active", "n12", "n13", "n14", "n15", "n16").oversubscribe("active", "FORCE"),
                        List.of(twoPerNode(44), twoPerNode(45), twoPerNode(46), twoPerNode(47), twoPerNode(48), twoPerNode(49)),
                        "44 on n[12-16] units={0, 1}", "45 on n[12-16] units={2, 3}", "46 on n[12-16] units={4, 5}",
                        "47 on n[12-16] units={6, 7}", "48 on n[12-16] units={0, 1}", "49 on n[12-16] units={2, 3}"),
                example("CR_Core_Memory, 1-core nodes: 3, 2, 3 nodes → n[12-14], n[15-16], n[12-14] (Slurm 22.05)",
                        coreNodes(1),
                        List.of(job(1).nodes(3), job(2).nodes(2), job(3).nodes(3)),
                        "1 on n[12-14] units={0}", "2 on n[15-16] units={0}", "3 on n[12-14] units={0}"),
                example("CR_Core_Memory: a 2-node job takes idle cores on n[15-16], not the full n[12-13] (Slurm 22.05)",
                        coreNodes(4),
                        List.of(job(1).nodes(3).tasks(12), job(2).nodes(2).tasks(2)),
                        "1 on n[12-14] units={0, 1, 2, 3}", "2 on n[15-16] units={0}"),
                example("CR_Core_Memory: too few idle cores anywhere, so every core is usable, nodes in order "
                                + "(Slurm 22.05: n[12-13], cores 0-2)",
                        coreNodes(4),
                        List.of(job(1).nodes(3).tasks(12).with(o -> o.withNtasksPerNode(4)),
                                job(2).nodes(2).tasks(4).with(o -> o.withNtasksPerNode(2)),
                                job(3).nodes(2).tasks(6).with(o -> o.withNtasksPerNode(3))),
                        "1 on n[12-14] units={0, 1, 2, 3}", "2 on n[15-16] units={0, 1}", "3 on n[12-13] units={0, 1, 2}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void placesAsSlurm(String example, DomainCluster cluster, List<JobFixture> jobs, List<String> expected) {
        ReplicaView view = cluster.view();
        List<Placement> placements = planner.plan(view, jobs.stream().map(JobFixture::build).toList(), false);

        boolean cores = view.settings().mode() != SelectMode.LINEAR;
        assertEquals(expected, placements.stream().map(p -> describe(p, cores)).toList());
    }

    private static DomainCluster linearNodes() {
        return linear().node("n12", 1, 1000).node("n13", 1, 1000).node("n14", 1, 1000).node("n15", 1, 1000)
                .node("n16", 1, 1000).partition("active", "n12", "n13", "n14", "n15", "n16").oversubscribe("active", "FORCE");
    }

    private static DomainCluster coreNodes(int cores) {
        DomainCluster cluster = consTres("CR_Core_Memory");
        for (int n = 12; n <= 16; n++) {
            cluster.node("n" + n, cores, 1, cores, 1, 1000);
        }
        return cluster.partition("active", "n12", "n13", "n14", "n15", "n16").oversubscribe("active", "FORCE");
    }

    private static JobFixture job(long id) {
        return aJob(id).partitions("active").mem(100);
    }

    /**
     * The page's {@code sbatch -n10 -N5}, two tasks per node. Slurm 22.05 lays -n10 -N5 out unevenly (six tasks on the
     * first node), so the run on it used {@code --ntasks-per-node=2}, which gives the page's layout and pairing.
     */
    private static JobFixture twoPerNode(long id) {
        return job(id).nodes(5).tasks(10).with(o -> o.withNtasksPerNode(2));
    }

    private static Arguments example(String name, DomainCluster cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(name, cluster, jobs, Arrays.asList(expected));
    }

    /** "JOB on NODES", plus the core ids: " units={…}" when every node has the same, else each node's. */
    static String describe(Placement placement, boolean cores) {
        return switch (placement) {
            case Placement.Start start -> start.jobId() + " on "
                    + Hostlist.compress(start.nodes().stream().map(NodeAllotment::node).toList())
                    + (cores ? " units=" + units(start.nodes()) : "");
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName();
        };
    }

    private static String units(List<NodeAllotment> shares) {
        return shares.stream().allMatch(s -> s.units().equals(shares.getFirst().units()))
                ? shares.getFirst().units().toString() : shares.stream().map(s -> s.node() + s.units()).toList().toString();
    }
}
