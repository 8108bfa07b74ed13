package dev.gantry.select.grpc;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresRequest;
import dev.gantry.placement.Owner;
import dev.gantry.placement.ResourceUnit;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.Constraint;
import dev.gantry.select.placement.JobOptions;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/** Maps between gantry.v1 select messages and the placement domain. */
final class ProtoMapping {
    private ProtoMapping() {}

    /**
     * The domain request for {@code proto}: counts, memory (per node or per CPU), GRES, --exclusive, -s, the
     * constraint, -w/-x, --contiguous, the time limit (-1 = UNLIMITED maps to the domain's 0 = unknown), the user and
     * --exclusive=user.
     *
     * @param field how the message is named in its request (e.g. "jobs[2]"), to prefix the offending field
     * @throws StatusRuntimeException INVALID_ARGUMENT naming the field that is wrong
     */
    static ResourceRequest toRequest(dev.gantry.api.v1.ResourceRequest proto, String field) {
        try {
            return new ResourceRequest(proto.getJobId(), proto.getPartitionsList(), proto.getMinNodes(), proto.getMaxNodes(),
                    proto.getNumTasks(), proto.getCpusPerTask(), proto.getMemPerNodeMb(), options(proto),
                    new Owner(proto.getUser(), proto.getExclusiveUser()));
        } catch (IllegalArgumentException e) {
            throw Status.INVALID_ARGUMENT.withDescription(field + "." + e.getMessage()).asRuntimeException();
        }
    }

    private static JobOptions options(dev.gantry.api.v1.ResourceRequest proto) {
        List<GresRequest> gres = proto.getGresList().stream().map(g -> {
            if (g.getCount() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("gres count " + g.getCount() + " is too large");
            }
            return new GresRequest(g.getName(), g.getType(), (int) g.getCount());
        }).toList();
        Constraint constraint;
        try {
            constraint = proto.getConstraint().isBlank() ? Constraint.ANY : Constraint.parse(proto.getConstraint());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("constraint: " + e.getMessage());
        }
        long limit = proto.getTimeLimitSeconds() > 0 ? proto.getTimeLimitSeconds() : 0;
        return new JobOptions(proto.getNtasksPerNode(), proto.getMemPerCpuMb(), gres, proto.getExclusive(),
                proto.getOversubscribe(), constraint, proto.getNodelistList(), new HashSet<>(proto.getExcludeList()),
                proto.getContiguous(), limit);
    }

    /** The API placement; core ids are named under CR_Core/CR_Socket, GRES by the node's name and type. */
    static dev.gantry.api.v1.Placement toProto(Placement placement, ReplicaView view) {
        dev.gantry.api.v1.Placement.Builder proto = dev.gantry.api.v1.Placement.newBuilder().setJobId(placement.jobId());
        switch (placement) {
            case Placement.Start start -> {
                proto.setStartNow(true).setPartition(start.partition());
                for (NodeAllotment share : start.nodes()) {
                    proto.addNodes(allocation(share, view));
                }
            }
            case Placement.Pending pending -> proto.setStartNow(false).setReason(pending.reason().slurmName());
        }
        return proto.build();
    }

    static NodeAllocation allocation(NodeAllotment share, ReplicaView view) {
        NodeAllocation.Builder b = NodeAllocation.newBuilder().setNode(share.node()).setCpus(share.cpus())
                .setMemoryMb(share.memoryMb());
        if (view.settings().unit() == ResourceUnit.CORE) {
            share.units().stream().forEach(b::addCoreIds);
        }
        int index = view.indexOf(share.node());
        if (index >= 0 && !share.gres().isEmpty()) {
            List<GresPool> pools = view.node(index).gres().pools();
            for (Map.Entry<Integer, Integer> held : new java.util.TreeMap<>(share.gres()).entrySet()) {
                if (held.getKey() >= 0 && held.getKey() < pools.size() && held.getValue() > 0) {
                    GresPool pool = pools.get(held.getKey());
                    b.addGres(Gres.newBuilder().setName(pool.name()).setType(pool.type()).setCount(held.getValue()));
                }
            }
        }
        return b.build();
    }
}
