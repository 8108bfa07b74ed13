package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The controller re-checks user exclusivity as select-svc places it (sbatch --exclusive=user, slurm.conf ExclusiveUser):
 * a placement on a node running another user's job is refused when either job is user-exclusive. Node n1 (4 CPUs) runs
 * job 1 of the first user given, in partition "p" (ordinary) or "x" (ExclusiveUser=YES); job 2 is placed beside it.
 */
class PlacementCheckUserTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("another user's --exclusive=user job holds the node", "alice", true, "p", "bob", false, "p", false, false),
                Arguments.of("the job asks --exclusive=user, another user's job holds the node", "alice", false, "p", "bob", true, "p", false, false),
                Arguments.of("the running job's partition is ExclusiveUser=YES", "alice", false, "x", "bob", false, "p", false, false),
                Arguments.of("the job's partition is ExclusiveUser=YES", "alice", false, "p", "bob", false, "x", false, false),
                Arguments.of("the same user's jobs share", "alice", true, "p", "alice", true, "x", false, true),
                Arguments.of("ordinary jobs of two users share", "alice", false, "p", "bob", false, "p", false, true),
                Arguments.of("the other user's job is being suspended for this one", "alice", true, "p", "bob", false, "p", true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusesAnotherUsersNodeWhenEitherIsUserExclusive(String rule, String runningUser, boolean runningAsked,
            String runningPartition, String user, boolean asked, String partition, boolean suspending, boolean accepted) {
        ClusterState state = new ClusterState(ConfigParser.parse(Path.of("t.conf"), """
                NodeName=n1 CPUs=4
                PartitionName=p Nodes=n1 Default=YES
                PartitionName=x Nodes=n1 ExclusiveUser=YES
                """));
        for (NodeRecord n : List.copyOf(state.nodes())) {
            state.putNode(n.registeredAt("127.0.0.1:1", T0, T0, false, null));
        }
        JobRecord running = job(1, runningUser, runningAsked, runningPartition).toBuilder().state(JobState.RUNNING, T0)
                .startTime(T0).allocation(List.of(new NodeShare("n1", 1, 0))).build();
        state.put(running);

        var problem = PlacementCheck.check(state, job(2, user, asked, partition), partition,
                List.of(new NodeShare("n1", 1, 0)), suspending ? List.of(running) : List.of());

        assertEquals(accepted, problem.isEmpty(), problem.toString());
    }

    private static JobRecord job(long id, String user, boolean exclusiveUser, String partition) {
        return new JobRecord(id, Fixtures.aRequest().user(user).exclusiveUser(exclusiveUser).build(), "j", user, 1000,
                1000, List.of(partition), new ResourceAsk(1, 1, 1, 1, 0, 0, 0, NodeSelection.NONE), 60, JobState.PENDING,
                false, PendingReason.NONE, partition, List.of(), T0, null, null, T0, 0, 0, 1, JobControls.NONE, null, 0);
    }
}
