package dev.gantry.select.preempt;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.DomainCluster.linear;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.placement.StartTrial;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Preemption-aware placement, the default policy beside Slurm's two-stage baseline. Outcomes read
 * "on NODES preempting [VICTIMS] (CPUS CPUs)" or "cannot start".
 */
class PreemptionPolicyTest {

    private static final PreemptionPolicy DEFAULT = new LeastPreemptionPolicy();
    private static final PreemptionPolicy SLURM = new SlurmTwoStagePolicy();

    /** Slurm's preempt.html example: n1–n5 in active and hipri; -N1 -n2 jobs 17, 18, 19 on n1, n2, n3. */
    private static DomainCluster slurmExample(DomainCluster cluster) {
        return cluster.nodes("n", 5, 2, 0).partition("active", "n1", "n2", "n3", "n4", "n5")
                .partition("hipri", "n1", "n2", "n3", "n4", "n5")
                .running(17, "active", 2, 0, "n1").running(18, "active", 2, 0, "n2").running(19, "active", 2, 0, "n3");
    }

    static Stream<Arguments> cases() {
        JobFixture hipri = aJob(20).partitions("hipri").nodes(3).tasks(6);
        return Stream.of(
                both("Slurm's example, youngest first: n3, n4, n5, preempting one job, not three",
                        slurmExample(consTres("CR_Core")), hipri, List.of(19L, 18L, 17L),
                        "on n3, n4, n5 preempting [19] (2 CPUs)", "on n3, n4, n5 preempting [19] (2 CPUs)"),
                both("Slurm's example under select/linear",
                        slurmExample(linear()), hipri, List.of(19L, 18L, 17L),
                        "on n3, n4, n5 preempting [19] (2 CPUs)", "on n3, n4, n5 preempting [19] (2 CPUs)"),
                both("Slurm's example, oldest first: among equal victims the order decides",
                        slurmExample(consTres("CR_Core")), hipri, List.of(17L, 18L, 19L),
                        "on n1, n4, n5 preempting [17] (2 CPUs)", "on n1, n4, n5 preempting [17] (2 CPUs)"),
                both("no preemption when the job fits as is",
                        slurmExample(consTres("CR_Core")), aJob(20).partitions("hipri").nodes(2).tasks(4), List.of(17L),
                        "on n4, n5 preempting [] (0 CPUs)", "on n4, n5 preempting [] (0 CPUs)"),
                both("Slurm's 8-node example: the second stage preempts only the 8-node job",
                        consTres("CR_Core").nodes("n", 14, 1, 0).partition("p", nodes(14))
                                .running(1, "p", 1, 0, "n1", "n2")
                                .running(2, "p", 1, 0, "n3", "n4", "n5", "n6")
                                .running(3, "p", 1, 0, "n7", "n8", "n9", "n10", "n11", "n12", "n13", "n14"),
                        aJob(20).partitions("p").nodes(8).tasks(8), List.of(1L, 2L, 3L),
                        "on n7, n8, n9, n10, n11, n12, n13, n14 preempting [3] (8 CPUs)",
                        "on n7, n8, n9, n10, n11, n12, n13, n14 preempting [3] (8 CPUs)"),
                both("a big job first in the list: the default preempts the small one that suffices",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(1, "p", 4, 0, "n1").running(2, "p", 1, 0, "n2"),
                        aJob(20).partitions("p").tasks(4), List.of(1L, 2L),
                        "on n1 preempting [1] (4 CPUs)", "on n2 preempting [2] (1 CPUs)"),
                both("cannot start even with every candidate preempted",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(1, "p", 4, 0, "n1").running(2, "p", 4, 0, "n2"),
                        aJob(20).partitions("p").tasks(4), List.of(),
                        "cannot start", "cannot start"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void placesWithTheFewestPreemptedResources(String rule, DomainCluster cluster, JobFixture job, List<Long> preemptable,
                                               String slurm, String gantry) {
        StartTrial trial = new StartTrial(cluster.view());

        assertEquals(slurm, describe(SLURM.place(trial, job.build(), preemptable)), "Slurm's two-stage baseline");
        assertEquals(gantry, describe(DEFAULT.place(trial, job.build(), preemptable)), "Gantry's default");
    }

    /**
     * preempt.html "A Simple Example" (select/linear, OverSubscribe=FORCE:1, PreemptMode=SUSPEND,GANG): five equal -N1
     * jobs 485–489 in active on n[12-16]; the -N3 hipri job 490 suspends the oldest three and runs on n[12-14], as the
     * page shows and Slurm 22.05 does. scheduler-svc hands the candidates oldest first (its VictimOrder); both policies
     * keep that order among victim sets of equal cost. Oldest last (preempt_youngest_first) gives the other three.
     */
    @ParameterizedTest(name = "candidates {0}")
    @MethodSource("simpleExample")
    void preemptHtmlSimpleExample_theFirstThreeCandidatesAreSuspended(List<Long> candidates, String expected) {
        DomainCluster cluster = linear();
        String[] nodes = {"n12", "n13", "n14", "n15", "n16"};
        for (String n : nodes) {
            cluster.node(n, 1, 1000);
        }
        cluster.partition("active", nodes).oversubscribe("active", "FORCE:1")
                .partition("hipri", nodes).oversubscribe("hipri", "FORCE:1");
        for (int i = 0; i < nodes.length; i++) {
            cluster.running(485 + i, "active", 1, 100, nodes[i]);
        }
        StartTrial trial = new StartTrial(cluster.view()).suspending(candidates);
        JobFixture job = aJob(490).partitions("hipri").nodes(3).tasks(3).mem(100);

        assertEquals(expected, describe(SLURM.place(trial, job.build(), candidates)), "Slurm's two-stage baseline");
        assertEquals(expected, describe(DEFAULT.place(trial, job.build(), candidates)), "Gantry's default");
    }

    static Stream<Arguments> simpleExample() {
        return Stream.of(
                Arguments.of(List.of(485L, 486L, 487L, 488L, 489L), "on n12, n13, n14 preempting [485, 486, 487] (3 CPUs)"),
                Arguments.of(List.of(489L, 488L, 487L, 486L, 485L), "on n14, n15, n16 preempting [489, 488, 487] (3 CPUs)"));
    }

    private static Arguments both(String rule, DomainCluster cluster, JobFixture job, List<Long> preemptable, String slurm,
                                  String gantry) {
        return Arguments.of(rule, cluster, job, preemptable, slurm, gantry);
    }

    private static String[] nodes(int count) {
        return java.util.stream.IntStream.rangeClosed(1, count).mapToObj(i -> "n" + i).toArray(String[]::new);
    }

    private static String describe(Optional<PreemptingPlacement> plan) {
        return plan.map(p -> "on " + p.start().nodes().stream().map(NodeAllotment::node).collect(Collectors.joining(", "))
                + " preempting " + p.victims() + " (" + p.preemptedCpus() + " CPUs)").orElse("cannot start");
    }
}
