package dev.gantry.common.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A peer refuses the calls of a controller whose fencing number is below one it has seen. */
class FencingTest {

    private static final HealthGrpc.HealthImplBase SERVING = new HealthGrpc.HealthImplBase() {
        @Override
        public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> answer) {
            answer.onNext(HealthCheckResponse.newBuilder().setStatus(HealthCheckResponse.ServingStatus.SERVING).build());
            answer.onCompleted();
        }
    };

    private Server server;
    private ManagedChannel channel;

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    private static HealthCheckResponse.ServingStatus callAs(ManagedChannel channel, long fencing) {
        return HealthGrpc.newBlockingStub(channel).withInterceptors(Fencing.stamp(() -> fencing))
                .check(HealthCheckRequest.getDefaultInstance()).getStatus();
    }

    @Test
    void aPeerRefusesALowerFencingNumberThanItHasSeen_withFailedPrecondition_andCountsIt() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        Fencing.Guard guard = new Fencing.Guard(refused::incrementAndGet);
        server = InProcessServerBuilder.forName("agent").directExecutor().addService(ServerInterceptors.intercept(SERVING, guard)).build().start();
        channel = InProcessChannelBuilder.forName("agent").directExecutor().build();

        assertEquals(HealthCheckResponse.ServingStatus.SERVING, callAs(channel, 5));
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, callAs(channel, 7), "a newer controller");
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, callAs(channel, 7));
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> callAs(channel, 5));
        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertEquals("fenced: controller fencing 5 < 7 (a newer controller is active)", e.getStatus().getDescription());
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, callAs(channel, 0), "a call without the header is not checked");
        assertEquals(1, refused.get());
        assertEquals(7, guard.highest());
    }

    @Test
    void aPeerLearnsTheFencingNumberFromTheControllersAnswers_andThenRefusesTheOlderController() throws Exception {
        AtomicLong controllerFencing = new AtomicLong(9);
        server = InProcessServerBuilder.forName("controller").directExecutor()
                .addService(ServerInterceptors.intercept(SERVING, Fencing.announce(controllerFencing::get))).build().start();
        channel = InProcessChannelBuilder.forName("controller").directExecutor().build();
        Fencing.Guard guard = new Fencing.Guard(() -> { });

        HealthGrpc.newBlockingStub(channel).withInterceptors(guard.learn()).check(HealthCheckRequest.getDefaultInstance());
        assertEquals(9, guard.highest(), "learnt when it registered with the new controller");
        assertEquals(false, guard.admit(8), "so the deposed controller's launch is refused before it ever called");
        assertEquals(true, guard.admit(9));
    }

    @Test
    void anAnswerFromADeposedControllerIsNotTaken_andTheFollowingChannelMovesOn() throws Exception {
        AtomicLong deposed = new AtomicLong(4);
        AtomicLong active = new AtomicLong(5);
        AtomicInteger refused = new AtomicInteger();
        Fencing.Guard guard = new Fencing.Guard(refused::incrementAndGet);
        server = InProcessServerBuilder.forName("deposed").directExecutor()
                .addService(ServerInterceptors.intercept(SERVING, Fencing.announce(deposed::get))).build().start();
        Server second = InProcessServerBuilder.forName("active").directExecutor()
                .addService(ServerInterceptors.intercept(SERVING, Fencing.announce(active::get))).build().start();
        // as SchedulerChannels opens them: the guard on each address, the selection above
        channel = FollowingChannel.open(java.util.List.of("deposed", "active"), a -> InProcessChannelBuilder.forName(a).directExecutor()
                .intercept(guard.learn()).build());
        try {
            var stub = HealthGrpc.newBlockingStub(channel);
            assertEquals(HealthCheckResponse.ServingStatus.SERVING, stub.check(HealthCheckRequest.getDefaultInstance()).getStatus(),
                    "fencing 4 is the highest heard so far: taken");
            ((FollowingChannel) channel).prefer("active");
            assertEquals(HealthCheckResponse.ServingStatus.SERVING, stub.check(HealthCheckRequest.getDefaultInstance()).getStatus());
            assertEquals(5, guard.highest());

            ((FollowingChannel) channel).prefer("deposed"); // e.g. a reconnect after the active one's blip
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.check(HealthCheckRequest.getDefaultInstance()));
            assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
            assertEquals("fenced: answer from controller fencing 4 < 5 (a newer controller is active)", e.getStatus().getDescription());
            assertEquals(true, Fencing.isStaleAnswer(e.getStatus()));
            assertEquals(1, refused.get());
            assertEquals("active", ((FollowingChannel) channel).target(), "the next calls go to the next address");
            assertEquals(HealthCheckResponse.ServingStatus.SERVING, stub.check(HealthCheckRequest.getDefaultInstance()).getStatus());
        } finally {
            second.shutdownNow();
        }
    }
}
