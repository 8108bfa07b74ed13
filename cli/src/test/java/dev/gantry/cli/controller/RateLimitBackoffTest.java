package dev.gantry.cli.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The commands back off and try again when the controller's rate limit refuses them, as Slurm's do. */
class RateLimitBackoffTest {

    static final Status LIMITED = Status.RESOURCE_EXHAUSTED.withDescription("rate limit: alice made more than 30 requests");

    final AtomicInteger calls = new AtomicInteger();
    final List<Long> pauses = new ArrayList<>();
    Server server;
    ManagedChannel channel;

    /** A controller that refuses the first {@code refusals} calls with {@code status}. */
    ControllerGrpc.ControllerBlockingStub refusingFirst(int refusals, Status status) throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(new ControllerGrpc.ControllerImplBase() {
            @Override
            public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> out) {
                if (calls.incrementAndGet() <= refusals) {
                    out.onError(status.asRuntimeException());
                } else {
                    out.onNext(ListJobsResponse.getDefaultInstance());
                    out.onCompleted();
                }
            }
        }).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor()
                .intercept(new RateLimitBackoff(1000, pauses::add)).build();
        return ControllerGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void aRateLimitedCall_isSentAgainAfterASecond_untilItGetsThrough() throws Exception {
        refusingFirst(3, LIMITED).listJobs(ListJobsRequest.getDefaultInstance());

        assertEquals(4, calls.get());
        assertEquals(List.of(1000L, 1000L, 1000L), pauses);
    }

    @Test
    void otherRefusals_areAnsweredAtOnce() throws Exception {
        var stub = refusingFirst(1, Status.RESOURCE_EXHAUSTED.withDescription("watch streams: alice has 256 open"));

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.listJobs(ListJobsRequest.getDefaultInstance()));

        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        assertEquals(1, calls.get());
        assertEquals(List.of(), pauses);
    }
}
