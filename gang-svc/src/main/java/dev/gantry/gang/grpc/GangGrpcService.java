package dev.gantry.gang.grpc;

import dev.gantry.api.v1.GangGrpc;
import dev.gantry.api.v1.GetGangStateRequest;
import dev.gantry.api.v1.GetGangStateResponse;
import dev.gantry.api.v1.PartitionGang;
import dev.gantry.gang.model.PartitionJobs;
import io.grpc.stub.StreamObserver;

/**
 * gantry.v1.Gang: reports what gang-svc tracks. Before the first snapshot it answers with an empty epoch, revision 0
 * and no partitions (nothing is tracked yet), not with an error. Served on gang-svc's internal port to cluster peers
 * only: it lists every job id of every gang-scheduled partition, and gang-svc authenticates no users, so it could not
 * apply PrivateData; users see the same states through squeue (docs/security.md, "Service identity").
 */
public final class GangGrpcService extends GangGrpc.GangImplBase {

    private final GangStatusSource source;

    public GangGrpcService(GangStatusSource source) {
        this.source = source;
    }

    @Override
    public void getGangState(GetGangStateRequest request, StreamObserver<GetGangStateResponse> response) {
        GangStatus status = source.currentStatus();
        GetGangStateResponse.Builder reply = GetGangStateResponse.newBuilder()
                .setEpoch(status.view().epoch())
                .setRevision(status.view().revision())
                .setEventsApplied(status.eventsApplied());
        for (PartitionJobs partition : status.view().partitions()) {
            reply.addPartitions(PartitionGang.newBuilder().setPartition(partition.partition())
                    .addAllJobIds(partition.jobIds()).addAllActiveJobIds(partition.activeJobIds()));
        }
        response.onNext(reply.build());
        response.onCompleted();
    }
}
