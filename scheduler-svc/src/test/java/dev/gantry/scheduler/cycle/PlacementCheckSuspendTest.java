package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A preemptor placed over the jobs it suspends (PreemptMode=SUSPEND,GANG): their CPUs and cores are its to take,
 * their memory and GPUs stay held — the controller's re-check agrees with select-svc's suspending what-if.
 */
class PlacementCheckSuspendTest {

    private ClusterState state;
    private JobRecord victim;

    @BeforeEach
    void cluster() {
        state = new ClusterState(ConfigParser.parse(Path.of("t.conf"), """
                GresTypes=gpu
                NodeName=n1 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000 Gres=gpu:a100:1
                PartitionName=low Nodes=n1 Default=YES PriorityTier=1
                PartitionName=hi Nodes=n1 PriorityTier=2
                """));
        for (NodeRecord n : List.copyOf(state.nodes())) {
            state.putNode(n.registeredAt("127.0.0.1:1", T0, T0, false, null));
        }
        victim = job(1, "low", 2, NodeSelection.NONE).toBuilder().state(JobState.RUNNING, T0).startTime(T0)
                .allocation(List.of(new NodeShare("n1", 2, 600, List.of(0, 1),
                        List.of(new GresGrant("gpu", "a100", 1, List.of(0)))))).build();
        state.put(victim);
    }

    private static JobRecord job(long id, String partition, int tasks, NodeSelection selection) {
        return new JobRecord(id, Fixtures.aRequest().build(), "j", "alice", 1000, 1000, List.of(partition),
                new ResourceAsk(1, 1, tasks, 1, 0, 0, 0, selection), 60, JobState.PENDING, false,
                PendingReason.NONE, partition, List.of(), T0, null, null, T0, 0, 0, 1, JobControls.NONE, null, 0);
    }

    private Optional<String> check(NodeShare share, List<JobRecord> suspended) {
        return PlacementCheck.check(state, job(2, "hi", 2, NodeSelection.NONE), "hi", List.of(share), suspended);
    }

    @Test
    void theSuspendedJobsCoresAreFreeForThePreemptor() {
        NodeShare cores = new NodeShare("n1", 2, 400, List.of(0, 1), List.of());

        assertEquals(Optional.empty(), check(cores, List.of(victim)));
        assertEquals(Optional.of("node n1 has 0 free CPUs, not 2"), check(cores, List.of()), "not without suspending it");
    }

    @Test
    void theSuspendedJobsMemoryStaysHeld() {
        assertEquals(Optional.of("node n1 has 400M free, not 401M (0M needed)"),
                check(new NodeShare("n1", 2, 401, List.of(0, 1), List.of()), List.of(victim)));
    }

    @Test
    void theSuspendedJobsGpusStayHeld() {
        assertEquals(Optional.of("node n1 has 0 free gpu:a100, not 1"), check(new NodeShare("n1", 2, 0, List.of(0, 1),
                List.of(new GresGrant("gpu", "a100", 1, List.of(0)))), List.of(victim)));
    }
}
