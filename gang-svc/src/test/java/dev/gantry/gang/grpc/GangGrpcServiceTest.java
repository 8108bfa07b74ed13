package dev.gantry.gang.grpc;

import static dev.gantry.gang.fixture.Conditions.waitUntil;
import static dev.gantry.gang.fixture.GangEvents.EPOCH;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.changed;
import static dev.gantry.gang.fixture.GangEvents.nodeChanged;
import static dev.gantry.gang.fixture.GangEvents.released;
import static dev.gantry.gang.fixture.GangEvents.running;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.snapshotEvent;
import static dev.gantry.gang.fixture.GangEvents.suspended;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.GangGrpc;
import dev.gantry.api.v1.GetGangStateRequest;
import dev.gantry.api.v1.GetGangStateResponse;
import dev.gantry.api.v1.PartitionGang;
import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.events.ReconnectBackoff;
import dev.gantry.gang.fixture.FakeScheduler;
import dev.gantry.gang.runtime.LiveGang;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GetGangState over grpc-java's in-process transport, fed by a fake scheduler-svc event stream. */
class GangGrpcServiceTest {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final LiveGang gang = new LiveGang(new SimpleMeterRegistry());
    private Server server;
    private ManagedChannel channel;
    private ClusterEventFollower follower;
    private GangGrpc.GangBlockingStub stub;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(scheduler).addService(new GangGrpcService(gang)).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        follower = new ClusterEventFollower(channel, "gang-svc", gang, new ReconnectBackoff(Duration.ofMillis(1), Duration.ofMillis(20)));
        stub = GangGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void tearDown() {
        follower.close();
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void beforeAnySnapshotNothingIsTracked() {
        assertEquals(GetGangStateResponse.getDefaultInstance(), stub.getGangState(GetGangStateRequest.getDefaultInstance()));
    }

    @Test
    void reportsThePartitionsTheStreamDescribes() throws Exception {
        follower.start();
        scheduler.awaitStream().send(
                snapshotEvent(10, snapshot(List.of("debug", "batch"), running(1, "debug", 100), suspended(2, "debug", 50))),
                added(11, running(3, "batch", 300)),
                changed(12, running(2, "debug", 50)),
                nodeChanged(13, "n1"),
                released(14, 1));

        GetGangStateResponse state = awaitRevision(14);

        assertEquals(GetGangStateResponse.newBuilder().setEpoch(EPOCH).setRevision(14).setEventsApplied(3)
                .addPartitions(PartitionGang.newBuilder().setPartition("batch").addJobIds(3).addActiveJobIds(3))
                .addPartitions(PartitionGang.newBuilder().setPartition("debug").addJobIds(2).addActiveJobIds(2))
                .build(), state);
    }

    @Test
    void eventsAppliedCountsSinceStart_acrossResyncs() throws Exception {
        follower.start();
        FakeScheduler.Stream first = scheduler.awaitStream();
        first.send(snapshotEvent(1, snapshot(List.of("debug"))), added(2, running(1, "debug", 1)), added(3, running(2, "debug", 2)));
        awaitRevision(3);
        first.fail();

        scheduler.awaitStream().send(snapshotEvent(3, snapshot(List.of("debug"), running(1, "debug", 1), running(2, "debug", 2))),
                released(4, 2));
        GetGangStateResponse state = awaitRevision(4);

        assertEquals(3, state.getEventsApplied());
        assertEquals(List.of(1L), state.getPartitions(0).getJobIdsList());
    }

    private GetGangStateResponse awaitRevision(long revision) throws InterruptedException {
        waitUntil("gang-svc reaches revision " + revision,
                () -> stub.getGangState(GetGangStateRequest.getDefaultInstance()).getRevision() == revision);
        return stub.getGangState(GetGangStateRequest.getDefaultInstance());
    }
}
