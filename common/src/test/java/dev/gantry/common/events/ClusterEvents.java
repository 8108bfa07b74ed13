package dev.gantry.common.events;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;

/** Builders for the events the tests send. */
final class ClusterEvents {
    private ClusterEvents() {}

    static ClusterEvent snapshot(String epoch, long revision, int nodes) {
        ClusterSnapshot.Builder snapshot = ClusterSnapshot.newBuilder();
        for (int i = 1; i <= nodes; i++) {
            snapshot.addNodes(Node.newBuilder().setName("n" + i).setCpus(4));
        }
        return ClusterEvent.newBuilder().setEpoch(epoch).setRevision(revision).setSnapshot(snapshot).build();
    }

    static ClusterEvent added(String epoch, long revision, long jobId) {
        return ClusterEvent.newBuilder().setEpoch(epoch).setRevision(revision)
                .setAllocationAdded(Allocation.newBuilder().setJobId(jobId).setPartition("debug")).build();
    }

    static ClusterEvent released(String epoch, long revision, long jobId) {
        return ClusterEvent.newBuilder().setEpoch(epoch).setRevision(revision).setAllocationReleased(jobId).build();
    }

    static String describe(ClusterEvent event) {
        return switch (event.getEventCase()) {
            case ALLOCATION_ADDED -> "added=" + event.getAllocationAdded().getJobId();
            case ALLOCATION_RELEASED -> "released=" + event.getAllocationReleased();
            default -> event.getEventCase().name();
        };
    }
}
