package dev.gantry.select.grpc;

import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.select.model.NodeShare;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** Maps between gantry.v1 select messages and the placement domain. */
final class ProtoMapping {
    private ProtoMapping() {}

    /**
     * The domain request for {@code proto}.
     *
     * @param field how the message is named in its request (e.g. "jobs[2]"), to prefix the offending field
     * @throws StatusRuntimeException INVALID_ARGUMENT naming the field that is wrong
     */
    static ResourceRequest toRequest(dev.gantry.api.v1.ResourceRequest proto, String field) {
        try {
            return new ResourceRequest(proto.getJobId(), proto.getPartitionsList(), proto.getMinNodes(), proto.getMaxNodes(),
                    proto.getNumTasks(), proto.getCpusPerTask(), proto.getMemPerNodeMb());
        } catch (IllegalArgumentException e) {
            throw Status.INVALID_ARGUMENT.withDescription(field + "." + e.getMessage()).asRuntimeException();
        }
    }

    static dev.gantry.api.v1.Placement toProto(Placement placement) {
        dev.gantry.api.v1.Placement.Builder proto = dev.gantry.api.v1.Placement.newBuilder().setJobId(placement.jobId());
        switch (placement) {
            case Placement.Start start -> {
                proto.setStartNow(true).setPartition(start.partition());
                for (NodeShare share : start.nodes()) {
                    proto.addNodes(NodeAllocation.newBuilder().setNode(share.node()).setCpus(share.cpus()).setMemoryMb(share.memoryMb()));
                }
            }
            case Placement.Pending pending -> proto.setStartNow(false).setReason(pending.reason().slurmName());
        }
        return proto.build();
    }
}
