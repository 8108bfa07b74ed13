package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.DomainCluster.linear;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.placement.GresRequest;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cons_tres and linear selection rules, one named case each, all jobs in partition "p" unless said. Outcomes read
 * "JOB on NODE cpus=C units={…} [mem=M] [gres={pool=count}], …" or "JOB pending REASON".
 */
class SelectionRulesTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();

    static Stream<Arguments> cases() {
        return Stream.of(
                // Cores and CPUs.
                rule("CR_Core: a core gives all its threads, CPUs round up to whole cores",
                        consTres("CR_Core").node("n1", 8, 1, 4, 2, 0).partition("p", "n1"),
                        List.of(job(1).tasks(3)),
                        "1 on n1 cpus=4 units={0, 1}"),
                rule("CR_CPU: CPUs are counted one by one",
                        consTres("CR_CPU").node("n1", 8, 1, 4, 2, 0).partition("p", "n1"),
                        List.of(job(1).tasks(3)),
                        "1 on n1 cpus=3 units={0, 1, 2}"),
                rule("CR_Core: a running job keeps its own cores; the job gets the others",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").runningOnUnits(100, "p", "n1", 0, 0, 2),
                        List.of(job(1).tasks(2), job(2)),
                        "1 on n1 cpus=2 units={1, 3}", "2 pending Resources"),

                // Memory.
                rule("--mem-per-cpu is charged per allocated CPU",
                        consTres("CR_CPU_Memory").node("n1", 8, 8000).partition("p", "n1"),
                        List.of(job(1).tasks(4).with(o -> o.withMemPerCpu(500))),
                        "1 on n1 cpus=4 units={0, 1, 2, 3} mem=2000"),
                rule("DefMemPerCPU applies when the job asks for no memory",
                        consTres("CR_CPU_Memory").node("n1", 8, 8000).partition("p", "n1").memoryLimits("p", 1000, 0, 0, 0),
                        List.of(job(1).tasks(2)),
                        "1 on n1 cpus=2 units={0, 1} mem=2000"),
                rule("DefMemPerNode applies when the job asks for no memory",
                        consTres("CR_CPU_Memory").node("n1", 8, 8000).partition("p", "n1").memoryLimits("p", 0, 3000, 0, 0),
                        List.of(job(1).tasks(2)),
                        "1 on n1 cpus=2 units={0, 1} mem=3000"),
                rule("MaxMemPerCPU raises the CPUs per task until the memory per CPU fits",
                        consTres("CR_CPU_Memory").node("n1", 8, 8000).partition("p", "n1").memoryLimits("p", 0, 0, 1000, 0),
                        List.of(job(1).with(o -> o.withMemPerCpu(2500))),
                        "1 on n1 cpus=3 units={0, 1, 2} mem=2502"),
                rule("MaxMemPerNode: a job over it cannot run in the partition (PartitionConfig)",
                        consTres("CR_CPU_Memory").node("n1", 8, 8000).partition("p", "n1").memoryLimits("p", 0, 0, 0, 4000),
                        List.of(job(1).mem(5000), job(2).mem(4000)),
                        "1 pending PartitionConfig", "2 on n1 cpus=1 units={0} mem=4000"),
                rule("memory not tracked (CR_CPU): requested memory is not charged",
                        consTres("CR_CPU").node("n1", 8, 1000).partition("p", "n1"),
                        List.of(job(1).mem(800), job(2).mem(800)),
                        "1 on n1 cpus=1 units={0} mem=800", "2 on n1 cpus=1 units={1} mem=800"),

                // Sharing.
                rule("FORCE:2: a core holds at most two jobs of the partition",
                        consTres("CR_Core").node("n1", 2, 0).partition("p", "n1").oversubscribe("p", "FORCE:2"),
                        List.of(job(1).tasks(2), job(2).tasks(2), job(3)),
                        "1 on n1 cpus=2 units={0, 1}", "2 on n1 cpus=2 units={0, 1}", "3 pending Resources"),
                rule("FORCE: jobs sharing cores must fit in memory together",
                        consTres("CR_Core_Memory").node("n1", 2, 1000).partition("p", "n1").oversubscribe("p", "FORCE:2")
                                .running(100, "p", 2, 600, "n1"),
                        List.of(job(1).tasks(2).mem(500), job(2).tasks(2).mem(400)),
                        "1 pending Resources", "2 on n1 cpus=2 units={0, 1} mem=400"),
                rule("FORCE: free cores go first, shared ones only when needed",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").oversubscribe("p", "FORCE:2"),
                        List.of(job(1).tasks(3), job(2).tasks(2)),
                        "1 on n1 cpus=3 units={0, 1, 2}", "2 on n1 cpus=2 units={0, 3}"),
                rule("YES:2 shares only with jobs that ask (--oversubscribe)",
                        consTres("CR_Core").node("n1", 2, 0).partition("p", "n1").oversubscribe("p", "YES:2"),
                        List.of(job(1).tasks(2), job(2).tasks(2), job(3).tasks(2).with(o -> o.withOversubscribe(true))),
                        "1 on n1 cpus=2 units={0, 1}", "2 pending Resources", "3 on n1 cpus=2 units={0, 1}"),
                rule("cores are shared only among jobs of the same partition",
                        consTres("CR_Core").node("n1", 2, 0).partition("p", "n1").partition("q", "n1")
                                .oversubscribe("p", "FORCE:2").oversubscribe("q", "FORCE:2").running(100, "q", 2, 0, "n1"),
                        List.of(job(1).tasks(2)),
                        "1 pending Resources"),
                rule("OverSubscribe=EXCLUSIVE: every job gets a whole empty node",
                        consTres("CR_Core").node("n1", 4, 0).node("n2", 4, 0).partition("p", "n1", "n2")
                                .oversubscribe("p", "EXCLUSIVE").running(100, "p", 1, 0, "n1"),
                        List.of(job(1), job(2)),
                        "1 on n2 cpus=4 units={0, 1, 2, 3}", "2 pending Resources"),
                rule("--exclusive: a whole empty node",
                        consTres("CR_Core").node("n1", 4, 0).node("n2", 8, 0).partition("p", "n1", "n2")
                                .running(100, "p", 1, 0, "n1"),
                        List.of(job(1).with(o -> o.withExclusive(true)), job(2)),
                        "1 on n2 cpus=8 units={0, 1, 2, 3, 4, 5, 6, 7}", "2 on n1 cpus=1 units={1}"),
                rule("linear FORCE:2: a whole node holds two jobs",
                        linear().node("n1", 4, 0).partition("p", "n1").oversubscribe("p", "FORCE:2"),
                        List.of(job(1), job(2), job(3)),
                        "1 on n1 cpus=4 units={0}", "2 on n1 cpus=4 units={0}", "3 pending Resources"),

                // GRES.
                rule("GRES: an untyped request draws from typed pools in order",
                        consTres("CR_Core").node("n1", 8, 0).gres("n1", "gpu:a100:1,gpu:v100:2").partition("p", "n1"),
                        List.of(job(1).with(o -> o.withGres(GresRequest.parseList("gpu:2"))), job(2).with(o -> o.withGres(GresRequest.parseList("gpu:2")))),
                        "1 on n1 cpus=1 units={0} gres={0=1, 1=1}", "2 pending Resources"),
                rule("GRES: a typed request takes only its type",
                        consTres("CR_Core").node("n1", 8, 0).node("n2", 8, 0).gres("n1", "gpu:a100:1,gpu:v100:2")
                                .gres("n2", "gpu:a100:4").partition("p", "n1", "n2"),
                        List.of(job(1).with(o -> o.withGres(GresRequest.parseList("gpu:v100:2"))),
                                job(2).with(o -> o.withGres(GresRequest.parseList("gpu:a100:2")))),
                        "1 on n1 cpus=1 units={0} gres={1=2}", "2 on n2 cpus=1 units={0} gres={0=2}"),

                // Constraints, node lists.
                rule("--constraint a&b: nodes with both features",
                        consTres("CR_Core").node("n1", 4, 0).node("n2", 4, 0).features("n1", "intel").features("n2", "intel", "ib")
                                .partition("p", "n1", "n2"),
                        List.of(job(1).with(o -> o.withConstraint(Constraint.parse("intel&ib")))),
                        "1 on n2 cpus=1 units={0}"),
                rule("--constraint a|b: nodes with either",
                        consTres("CR_Core").node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).features("n1", "amd")
                                .features("n2", "intel").partition("p", "n1", "n2", "n3"),
                        List.of(job(1).with(o -> o.withConstraint(Constraint.parse("arm|intel")))),
                        "1 on n2 cpus=1 units={0}"),
                rule("--constraint [a|b]: all nodes from one feature set",
                        consTres("CR_Core").node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).features("n1", "rack1")
                                .features("n2", "rack2").features("n3", "rack2").partition("p", "n1", "n2", "n3"),
                        List.of(job(1).nodes(2).tasks(2).with(o -> o.withConstraint(Constraint.parse("[rack1|rack2]"))),
                                job(2).nodes(3).tasks(3).with(o -> o.withConstraint(Constraint.parse("[rack1|rack2]"))),
                                job(3).nodes(3).tasks(3).with(o -> o.withConstraint(Constraint.parse("rack1|rack2")))),
                        "1 on n2 cpus=1 units={0}, n3 cpus=1 units={0}", "2 pending Resources",
                        "3 on n2 cpus=1 units={1}, n3 cpus=1 units={1}, n1 cpus=1 units={0}"),
                rule("--nodelist: the listed nodes, first, plus the best others",
                        consTres("CR_Core").nodes("n", 3, 4, 0).partition("p", "n1", "n2", "n3"),
                        List.of(job(1).nodes(2).tasks(2).with(o -> o.withNodeList(List.of("n3")))),
                        "1 on n3 cpus=1 units={0}, n1 cpus=1 units={0}"),
                rule("--nodelist: a listed node that is full keeps the job pending",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2").running(100, "p", 4, 0, "n1"),
                        List.of(job(1).with(o -> o.withNodeList(List.of("n1")))),
                        "1 pending Resources"),
                rule("--exclude: never on the excluded nodes",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2"),
                        List.of(job(1).with(o -> o.withExclude(Set.of("n1")))),
                        "1 on n2 cpus=1 units={0}"),
                rule("--contiguous: consecutive nodes only",
                        consTres("CR_Core").nodes("n", 4, 4, 0).partition("p", "n1", "n2", "n3", "n4").running(100, "p", 4, 0, "n2"),
                        List.of(job(1).nodes(2).tasks(2).with(o -> o.withContiguous(true)), job(2).nodes(2).tasks(2)),
                        "1 on n3 cpus=1 units={0}, n4 cpus=1 units={0}", "2 on n3 cpus=1 units={1}, n4 cpus=1 units={1}"),
                rule("--ntasks-per-node: the node count follows from the tasks",
                        consTres("CR_Core").nodes("n", 3, 4, 0).partition("p", "n1", "n2", "n3"),
                        List.of(job(1).nodes(1, 3).tasks(4).with(o -> o.withNtasksPerNode(2))),
                        "1 on n1 cpus=2 units={0, 1}, n2 cpus=2 units={0, 1}"),

                // Topology.
                rule("tree: a multi-node job goes under the lowest switch that holds it, best fit first",
                        consTres("CR_Core").nodes("n", 5, 4, 0).partition("p", "n1", "n2", "n3", "n4", "n5")
                                .leafSwitch("s1", "n1", "n2").leafSwitch("s2", "n3", "n4", "n5").upperSwitch("s0", "s1", "s2"),
                        List.of(job(1).nodes(3).tasks(12), job(2).nodes(2).tasks(8)),
                        "1 on n3 cpus=4 units={0, 1, 2, 3}, n4 cpus=4 units={0, 1, 2, 3}, n5 cpus=4 units={0, 1, 2, 3}",
                        "2 on n1 cpus=4 units={0, 1, 2, 3}, n2 cpus=4 units={0, 1, 2, 3}"),
                rule("tree: when no leaf holds the job, the fewest leaves, fullest first",
                        consTres("CR_Core").nodes("n", 5, 4, 0).partition("p", "n1", "n2", "n3", "n4", "n5")
                                .leafSwitch("s1", "n1", "n2").leafSwitch("s2", "n3", "n4", "n5").upperSwitch("s0", "s1", "s2"),
                        List.of(job(1).nodes(4).tasks(4)),
                        "1 on n3 cpus=1 units={0}, n4 cpus=1 units={0}, n5 cpus=1 units={0}, n1 cpus=1 units={0}"),
                rule("tree: a leaf with a busy node is skipped for one that holds the whole job",
                        consTres("CR_Core").nodes("n", 5, 4, 0).partition("p", "n1", "n2", "n3", "n4", "n5")
                                .leafSwitch("s1", "n1", "n2").leafSwitch("s2", "n3", "n4", "n5").upperSwitch("s0", "s1", "s2")
                                .running(100, "p", 4, 0, "n1"),
                        List.of(job(1).nodes(2).tasks(2)),
                        "1 on n3 cpus=1 units={0}, n4 cpus=1 units={0}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void selectsByTheRule(String rule, DomainCluster cluster, List<JobFixture> jobs, List<String> expected) {
        List<Placement> placements = planner.plan(cluster.view(), jobs.stream().map(JobFixture::build).toList(), false);

        assertEquals(expected, placements.stream().map(SelectionRulesTest::describe).toList());
    }

    private static JobFixture job(long id) {
        return aJob(id).partitions("p");
    }

    private static Arguments rule(String rule, DomainCluster cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(rule, cluster, jobs, Arrays.asList(expected));
    }

    static String describe(Placement placement) {
        return switch (placement) {
            case Placement.Start start -> start.jobId() + " on "
                    + start.nodes().stream().map(SelectionRulesTest::describe).collect(Collectors.joining(", "));
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName();
        };
    }

    private static String describe(NodeAllotment share) {
        return share.node() + " cpus=" + share.cpus() + " units=" + share.units()
                + (share.memoryMb() > 0 ? " mem=" + share.memoryMb() : "")
                + (share.gres().isEmpty() ? "" : " gres=" + new java.util.TreeMap<>(share.gres()));
    }
}
