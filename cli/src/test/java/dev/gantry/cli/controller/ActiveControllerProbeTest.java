package dev.gantry.cli.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListPartitionsResponse;
import dev.gantry.common.failover.FollowingChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A command with several controller addresses sends its calls to the one that answers: not a frozen one, not a standby. */
class ActiveControllerProbeTest {

    private final List<Server> servers = new ArrayList<>();
    private FollowingChannel channel;

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.shutdownNow();
        }
        servers.forEach(Server::shutdownNow);
    }

    enum Kind { ACTIVE, STANDBY, FROZEN }

    private void controller(String name, Kind kind) throws Exception {
        servers.add(InProcessServerBuilder.forName(name).addService(new ControllerGrpc.ControllerImplBase() {
            @Override
            public void listPartitions(ListPartitionsRequest request, StreamObserver<ListPartitionsResponse> answer) {
                switch (kind) {
                    case ACTIVE -> {
                        answer.onNext(ListPartitionsResponse.getDefaultInstance());
                        answer.onCompleted();
                    }
                    case STANDBY -> answer.onError(Status.UNAVAILABLE.withDescription("standby").asRuntimeException());
                    case FROZEN -> { } // never answers
                }
            }
        }).build().start());
    }

    private FollowingChannel following(String... targets) {
        return (FollowingChannel) FollowingChannel.open(List.of(targets), t -> InProcessChannelBuilder.forName(t).build());
    }

    /** A frozen controller first, or a standby first: either is passed over for the active second. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Kind.class, names = {"FROZEN", "STANDBY"})
    void aControllerThatIsNotActiveFirst_isPassedOver_forTheActiveSecond(Kind first) throws Exception {
        controller("first", first);
        controller("active", Kind.ACTIVE);
        channel = following("first", "active");

        ControllerChannels.preferActive(channel, Duration.ofSeconds(5));

        assertEquals("active", channel.target());
    }

    @Test
    void whenNoneAnswers_theCallsGoToTheFirstAddress_asBefore() throws Exception {
        controller("a", Kind.FROZEN);
        controller("b", Kind.STANDBY);
        channel = following("a", "b");

        ControllerChannels.preferActive(channel, Duration.ofMillis(300));

        assertEquals("a", channel.target());
    }
}
