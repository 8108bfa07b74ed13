package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.common.resources.GresSpec;
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

/** The controller's re-check of GRES, cores, memory per CPU, sharing and node lists in a proposed placement. */
class PlacementCheckResourcesTest {

    private ClusterState state;

    @BeforeEach
    void cluster() {
        state = new ClusterState(ConfigParser.parse(Path.of("t.conf"), """
                GresTypes=gpu
                NodeName=g1 Sockets=2 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=8000 Gres=gpu:a100:2 Features=intel
                NodeName=g2 Sockets=2 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=8000 Features=amd
                PartitionName=p Nodes=g[1-2] Default=YES
                PartitionName=shared Nodes=g[1-2] OverSubscribe=FORCE:2
                PartitionName=excl Nodes=g[1-2] OverSubscribe=EXCLUSIVE
                PartitionName=capped Nodes=g[1-2] MaxMemPerCPU=250
                """));
        for (NodeRecord n : List.copyOf(state.nodes())) {
            state.putNode(n.registeredAt("127.0.0.1:1", T0, T0, false, null));
        }
    }

    private static JobRecord job(long id, String partition, int tasks, long memPerCpu, NodeSelection selection) {
        return new JobRecord(id, Fixtures.aRequest().build(), "j", "alice", 1000, 1000, List.of(partition),
                new ResourceAsk(1, 1, tasks, 1, 0, 0, memPerCpu, selection), 60, JobState.PENDING, false,
                PendingReason.NONE, partition, List.of(), T0, null, null, T0, 0, 0, 1, JobControls.NONE, null, 0);
    }

    private void running(long id, String partition, NodeShare share) {
        state.put(job(id, partition, share.cpus(), 0, NodeSelection.NONE).toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(share)).startTime(T0).build());
    }

    private static NodeSelection gpus(int n) {
        return new NodeSelection(List.of(new GresSpec("gpu", "", n)), false, "", List.of(), List.of(), false, false);
    }

    private static NodeShare share(String node, int cpus, long mem, List<Integer> cores, GresGrant... gres) {
        return new NodeShare(node, cpus, mem, cores, List.of(gres));
    }

    private Optional<String> check(JobRecord job, NodeShare share) {
        return PlacementCheck.check(state, job, job.partition(), List.of(share));
    }

    @Test
    void gres_grantedInFullAndFree_isAccepted() {
        assertEquals(Optional.empty(), check(job(1, "p", 1, 0, gpus(2)),
                share("g1", 1, 0, List.of(), new GresGrant("gpu", "a100", 2, List.of(0, 1)))));
    }

    @Test
    void gres_notGrantedOrAlreadyHeld_isRefused() {
        assertEquals(Optional.of("node g1 grants 1 of gpu:2"), check(job(1, "p", 1, 0, gpus(2)),
                share("g1", 1, 0, List.of(), new GresGrant("gpu", "a100", 1, List.of()))));
        running(9, "p", share("g1", 1, 0, List.of(), new GresGrant("gpu", "a100", 1, List.of())));
        assertEquals(Optional.of("node g1 has 1 free gpu:a100, not 2"), check(job(1, "p", 1, 0, gpus(2)),
                share("g1", 1, 0, List.of(), new GresGrant("gpu", "a100", 2, List.of()))));
        assertEquals(Optional.of("node g2 has 0 free gpu:a100, not 1"), check(job(2, "p", 1, 0, gpus(1)),
                share("g2", 1, 0, List.of(), new GresGrant("gpu", "a100", 1, List.of()))));
    }

    @Test
    void cores_mustBeOnTheNode_distinct_enough_andFree() {
        JobRecord two = job(1, "p", 2, 0, NodeSelection.NONE);
        assertEquals(Optional.empty(), check(two, share("g1", 2, 0, List.of(0, 3))));
        assertEquals(Optional.of("node g1: core 4 is not a core of the node or is given twice"), check(two, share("g1", 2, 0, List.of(0, 4))));
        assertEquals(Optional.of("node g1: 1 core(s) cannot give 2 CPUs"), check(two, share("g1", 2, 0, List.of(1))));
        running(9, "p", share("g1", 1, 0, List.of(3)));
        assertEquals(Optional.of("node g1: core 3 is already allocated"), check(two, share("g1", 2, 0, List.of(0, 3))));
    }

    @Test
    void forceSharing_letsTwoJobsHoldACore_butNotThree() {
        running(8, "shared", share("g1", 4, 0, List.of(0, 1, 2, 3)));
        JobRecord next = job(1, "shared", 4, 0, NodeSelection.NONE);
        assertEquals(Optional.empty(), check(next, share("g1", 4, 0, List.of(0, 1, 2, 3))));
        running(9, "shared", share("g1", 4, 0, List.of(0, 1, 2, 3)));
        assertEquals(Optional.of("node g1 has 0 free CPUs, not 4"), check(next, share("g1", 4, 0, List.of(0, 1, 2, 3))));
    }

    @Test
    void memoryPerCpu_isNeededTimesTheCpusOnTheNode() {
        JobRecord job = job(1, "p", 2, 1000, NodeSelection.NONE);
        assertEquals(Optional.empty(), check(job, share("g2", 2, 2000, List.of())));
        assertEquals(Optional.of("node g2 has 8000M free, not 1000M (2000M needed)"), check(job, share("g2", 2, 1000, List.of())));
    }

    @Test
    void overMaxMemPerCpu_theJobGetsMoreCpus_asSelectSvcPlacesIt() {
        // --mem-per-cpu=300 over MaxMemPerCPU=250: 2 CPUs per task at 150M each (slurm.conf MaxMemPerCPU)
        JobRecord job = job(1, "capped", 1, 300, NodeSelection.NONE);
        assertEquals(Optional.empty(), check(job, share("g2", 2, 300, List.of(0, 1))));
        assertEquals(Optional.of("1 CPUs given, 2 needed"), check(job, share("g2", 1, 150, List.of(0))));
    }

    @Test
    void exclusive_wantsAnIdleNode_andExclusivePartitionsToo() {
        running(9, "p", share("g2", 1, 0, List.of()));
        NodeSelection exclusive = new NodeSelection(List.of(), true, "", List.of(), List.of(), false, false);
        assertEquals(Optional.of("node g2 is not idle; the job wants whole nodes"), check(job(1, "p", 1, 0, exclusive), share("g2", 1, 0, List.of())));
        assertEquals(Optional.of("node g2 is not idle; the job wants whole nodes"),
                check(job(2, "excl", 1, 0, NodeSelection.NONE), share("g2", 1, 0, List.of())));
        assertEquals(Optional.empty(), check(job(3, "p", 1, 0, exclusive), share("g1", 1, 0, List.of())));
    }

    @Test
    void nodeLists_andFeatures() {
        NodeSelection needsG1 = new NodeSelection(List.of(), false, "", List.of("g1"), List.of(), false, false);
        assertEquals(Optional.of("required node g1 is not in the placement"), check(job(1, "p", 1, 0, needsG1), share("g2", 1, 0, List.of())));
        NodeSelection notG2 = new NodeSelection(List.of(), false, "", List.of(), List.of("g2"), false, false);
        assertEquals(Optional.of("node g2 is excluded"), check(job(1, "p", 1, 0, notG2), share("g2", 1, 0, List.of())));
        NodeSelection intel = new NodeSelection(List.of(), false, "intel", List.of(), List.of(), false, false);
        assertEquals(Optional.of("node g2 does not have the features intel"), check(job(1, "p", 1, 0, intel), share("g2", 1, 0, List.of())));
        assertEquals(Optional.empty(), check(job(1, "p", 1, 0, intel), share("g1", 1, 0, List.of())));
    }
}
