package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * sbatch --exclusive=user, read from the job itself by the default planner: a user-exclusive job neither preempts nor
 * is preempted by another user's job, except that it may preempt another user's fully exclusive (--exclusive) job
 * (https://slurm.schedmd.com/preempt.html, ExclusiveUser). Bob's job in partition hi preempts, alice's in low is the
 * candidate.
 */
class ExclusiveUserTest {

    static Stream<Arguments> cases() {
        UnaryOperator<RunningJobs.Builder> asIs = b -> b;
        return Stream.of(
                Arguments.of("neither asked: preemptable", asIs, asIs, "preemptable"),
                Arguments.of("the victim asked --exclusive=user: kept from another user's job", asIs,
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusiveUser, "EXCLUSIVE_USER"),
                Arguments.of("the preemptor asked --exclusive=user: does not preempt another user's job",
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusiveUser, asIs, "EXCLUSIVE_USER"),
                Arguments.of("the preemptor asked --exclusive=user: may preempt another user's --exclusive job",
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusiveUser,
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusive, "preemptable"),
                Arguments.of("the victim asked --exclusive=user: kept even from another user's --exclusive job",
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusive,
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusiveUser, "EXCLUSIVE_USER"),
                Arguments.of("both --exclusive=user, same user: preemptable",
                        (UnaryOperator<RunningJobs.Builder>) b -> b.exclusiveUser().user("alice"),
                        (UnaryOperator<RunningJobs.Builder>) RunningJobs.Builder::exclusiveUser, "preemptable"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exclusiveUser_fromTheJobsOwnRequest(String rule, UnaryOperator<RunningJobs.Builder> preemptor,
            UnaryOperator<RunningJobs.Builder> victim, String expected) {
        JobRecord p = preemptor.apply(aJob(1).pending().partition("hi").user("bob")).build();
        JobRecord v = victim.apply(aJob(10).partition("low").on("n1")).build();

        CandidateList c = new PreemptionPlanner(settings(VictimRulesTest.TIERS)).candidates(p, List.of(v), NOW);

        String outcome = c.order().contains(10L) ? "preemptable"
                : c.kept().isEmpty() ? "not a candidate" : c.kept().get(0).verdict().kind().name();
        assertEquals(expected, outcome);
    }
}
