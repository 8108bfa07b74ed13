package dev.gantry.common.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Calls follow the controller that answers: past a refused address, a standby's redirect, a frozen one. */
class FollowingChannelTest {

    private final List<Server> servers = new ArrayList<>();
    private ManagedChannel channel;

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.shutdownNow();
        }
        servers.forEach(Server::shutdownNow);
    }

    /** An in-process "controller" named {@code name}: active answers SERVING, a standby UNAVAILABLE naming {@code redirect}. */
    private void controller(String name, boolean active, String redirect) throws Exception {
        servers.add(InProcessServerBuilder.forName(name).directExecutor().addService(new HealthGrpc.HealthImplBase() {
            @Override
            public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> answer) {
                if (active) {
                    answer.onNext(HealthCheckResponse.newBuilder().setStatus(HealthCheckResponse.ServingStatus.SERVING).build());
                    answer.onCompleted();
                } else {
                    Metadata trailers = new Metadata();
                    if (redirect != null) {
                        trailers.put(ControllerRedirect.ACTIVE_CONTROLLER, redirect);
                    }
                    answer.onError(Status.UNAVAILABLE.withDescription(ControllerRedirect.STANDBY_PREFIX + "elsewhere").asRuntimeException(trailers));
                }
            }
        }).build().start());
    }

    private ManagedChannel following(String... targets) {
        return FollowingChannel.open(List.of(targets), t -> InProcessChannelBuilder.forName(t).directExecutor().build());
    }

    private String call() {
        return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
                .getStatus().name();
    }

    @Test
    void aRefusedAddress_failsOneCall_andTheNextGoesToTheNextAddress_andStaysThere() throws Exception {
        controller("b", true, null);
        channel = following("a-not-listening", "b");
        assertEquals(Status.Code.UNAVAILABLE, assertThrows(StatusRuntimeException.class, this::call).getStatus().getCode());
        assertEquals("b", ((FollowingChannel) channel).target());
        assertEquals("SERVING", call());
        assertEquals("SERVING", call());
        assertEquals("b", ((FollowingChannel) channel).target(), "an answer does not move it");
    }

    @Test
    void aStandbysRedirect_movesTheNextCallsToTheAddressItNames_notMerelyTheNext() throws Exception {
        controller("a", false, "c");
        controller("b", false, "c");
        controller("c", true, null);
        channel = following("a", "b", "c");
        assertThrows(StatusRuntimeException.class, this::call);
        assertEquals("c", ((FollowingChannel) channel).target());
        assertEquals("SERVING", call());
    }

    @Test
    void aRedirectToAnUnknownAddress_movesToTheNext_andAroundTheList() throws Exception {
        controller("a", true, null);
        controller("b", false, "somewhere-else:1");
        channel = following("b", "a");
        assertThrows(StatusRuntimeException.class, this::call);
        assertEquals("a", ((FollowingChannel) channel).target());
        assertEquals("SERVING", call());
    }

    @Test
    void oneAddress_isThePlainChannel() {
        ManagedChannel plain = following("x");
        try {
            assertEquals(false, plain instanceof FollowingChannel);
        } finally {
            plain.shutdownNow();
        }
    }

    @Test
    void addresses_parseCommasAndLines_andNameTheSettingWhenBad() {
        assertEquals(List.of("h1:1", "h2:2"), ControllerAddresses.parse(" h1:1 ,h2:2\nh1:1\n", "X"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ControllerAddresses.parse("h1:1,h2", "GANTRY_SCHEDULER_ADDRESS"));
        assertEquals("GANTRY_SCHEDULER_ADDRESS: expected host:port, got \"h2\"", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ControllerAddresses.parse(" , ", "X"));
    }
}
