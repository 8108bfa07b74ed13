package dev.gantry.select.preempt;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.select.fixture.DomainCluster;
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
 * PreemptParameters reorder_count and strict_order (slurm.conf(5)) in the preemption policies. The cluster: five
 * 1-CPU nodes, all busy — job 1 on n3, job 2 on n1–n2, job 3 on n4–n5, given in that preemption order; a 4-node job
 * wants in. Stage one preempts 1, 2 and 3 (five free nodes) and selects n1–n4.
 */
class PreemptParametersPolicyTest {

    private static DomainCluster busy() {
        return consTres("CR_Core").nodes("n", 5, 1, 0).partition("p", "n1", "n2", "n3", "n4", "n5")
                .running(1, "p", 1, 0, "n3").running(2, "p", 1, 0, "n1", "n2").running(3, "p", 1, 0, "n4", "n5");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("reorder_count=0: stage one's victims that overlap the selection",
                        new SlurmTwoStagePolicy(0, false), "on n1, n2, n3, n4 preempting [1, 2, 3] (5 CPUs)"),
                Arguments.of("default (one reorder): the last needed first, then by overlap — job 2 before job 1",
                        new SlurmTwoStagePolicy(1, false), "on n1, n2, n4, n5 preempting [2, 3] (4 CPUs)"),
                Arguments.of("strict_order: the last needed first, the others in preemption order — job 1 before job 2",
                        new SlurmTwoStagePolicy(1, true), "on n1, n2, n3, n4 preempting [1, 2, 3] (5 CPUs)"),
                Arguments.of("reorder_count=3: more rounds find nothing better than the first reorder",
                        new SlurmTwoStagePolicy(3, false), "on n1, n2, n4, n5 preempting [2, 3] (4 CPUs)"),
                Arguments.of("Gantry's default policy preempts the fewest CPUs",
                        new LeastPreemptionPolicy(1, false), "on n1, n2, n4, n5 preempting [2, 3] (4 CPUs)"),
                Arguments.of("Gantry's default policy with strict_order answers as Slurm's strict method",
                        new LeastPreemptionPolicy(1, true), "on n1, n2, n3, n4 preempting [1, 2, 3] (5 CPUs)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void preemptParameters_shapeTheVictimSet(String rule, PreemptionPolicy policy, String expected) {
        StartTrial trial = new StartTrial(busy().view());

        assertEquals(expected, describe(policy.place(trial, aJob(20).partitions("p").nodes(4).tasks(4).build(),
                List.of(1L, 2L, 3L))));
    }

    private static String describe(Optional<PreemptingPlacement> plan) {
        return plan.map(p -> "on " + p.start().nodes().stream().map(NodeAllotment::node).collect(Collectors.joining(", "))
                + " preempting " + p.victims() + " (" + p.preemptedCpus() + " CPUs)").orElse("cannot start");
    }
}
