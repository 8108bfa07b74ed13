package dev.gantry.select.model;

import static dev.gantry.select.fixture.ClusterFixture.EPOCH;
import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.ClusterFixture.allocation;
import static dev.gantry.select.fixture.ClusterFixture.share;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Partition;
import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.Owner;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.runtime.ReplicaInputs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replica keeps who runs what and who is user-exclusive, from the snapshot and from each allocation event, and from
 * the partitions' ExclusiveUser=YES: placement on a rebuilt replica honours user exclusivity as before the restart.
 */
class ReplicaOwnersTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** n1..n3 with 4 CPUs; "p" ordinary, "x" ExclusiveUser=YES; alice's --exclusive=user job on n1. */
    private static Replica rebuilt() {
        ClusterSnapshot base = aCluster().node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0)
                .partition("p", "n1", "n2", "n3").snapshot();
        ClusterSnapshot snapshot = base.toBuilder()
                .addPartitions(Partition.newBuilder().setName("x").setState(dev.gantry.api.v1.PartitionState.PARTITION_STATE_UP)
                        .addAllNodes(List.of("n1", "n2", "n3")).setExclusiveUser(true))
                .addAllocations(allocation(100, "p", false, share("n1", 1, 0)).toBuilder().setUser("alice")
                        .setExclusiveUser(true))
                .build();
        return ReplicaInputs.replica(EPOCH, 1, snapshot);
    }

    @Test
    void theSnapshotCarriesOwnersAndExclusiveUserPartitions() {
        ReplicaView view = rebuilt().view();

        assertEquals(new Owner("alice", true), view.allocations().get(0).owner());
        assertEquals(true, view.partition("x").orElseThrow().exclusiveUser());
        assertEquals(false, view.partition("p").orElseThrow().exclusiveUser());
        assertEquals(List.of("2 on n2", "3 on n1"), place(view,
                aJob(2).partitions("p").by(new Owner("bob", false)).build(),
                aJob(3).partitions("p").by(new Owner("alice", false)).build()));
    }

    @Test
    void allocationEventsCarryOwners_andAnExclusiveUserPartitionMakesItsJobsUserExclusive() {
        Replica replica = rebuilt();
        // carol's ordinary job in the ExclusiveUser=YES partition on n2: user-exclusive there.
        ReplicaInputs.apply(replica, ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(2).setAllocationAdded(
                allocation(101, "x", false, share("n2", 1, 0)).toBuilder().setUser("carol")).build());

        assertEquals(List.of("4 on n3"), place(replica.view(), aJob(4).partitions("p").by(new Owner("bob", false)).build()));
        assertEquals(List.of("5 on n2"), place(replica.view(), aJob(5).partitions("p").by(new Owner("carol", true)).build()));
    }

    private List<String> place(ReplicaView view, dev.gantry.select.placement.ResourceRequest... jobs) {
        return planner.plan(view, List.of(jobs), false).stream().map(p -> switch (p) {
            case Placement.Start s -> s.jobId() + " on " + String.join(", ", s.nodes().stream().map(NodeAllotment::node).toList());
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName();
        }).toList();
    }
}
