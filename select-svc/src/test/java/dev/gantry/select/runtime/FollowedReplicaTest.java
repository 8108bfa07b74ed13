package dev.gantry.select.runtime;

import static dev.gantry.select.fixture.ClusterFixture.EPOCH;
import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.ClusterFixture.allocation;
import static dev.gantry.select.fixture.ClusterFixture.share;
import static dev.gantry.select.fixture.Conditions.waitUntil;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.events.ReconnectBackoff;
import dev.gantry.select.fixture.FakeScheduler;
import dev.gantry.select.grpc.SelectGrpcService;
import dev.gantry.select.placement.PlacementPlanner;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pieces select-svc wires together, without Micronaut: event stream → follower → live replica → Select. */
class FollowedReplicaTest {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final LiveReplica replica = new LiveReplica(new SimpleMeterRegistry());
    private Server server;
    private ManagedChannel channel;
    private ClusterEventFollower follower;
    private SelectGrpc.SelectBlockingStub select;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        SelectGrpcService service = new SelectGrpcService(replica, PlacementPlanner.standard(), InstantSource.system(),
                new SimpleMeterRegistry());
        server = InProcessServerBuilder.forName(name).addService(scheduler).addService(service).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        follower = new ClusterEventFollower(channel, "select-svc", replica,
                new ReconnectBackoff(Duration.ofMillis(1), Duration.ofMillis(20)));
        select = SelectGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void tearDown() {
        follower.close();
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void plansOnWhatTheStreamSaid_andStopsWhenTheStreamIsLost() throws Exception {
        follower.start();
        FakeScheduler.Stream stream = scheduler.awaitStream();
        assertEquals(Status.Code.UNAVAILABLE, planError());

        stream.send(aCluster().atRevision(10).node("n1", 4, 0).partition("debug", "n1").snapshotEvent(),
                event(11).setAllocationAdded(allocation(100, "debug", false, share("n1", 3, 0))).build());
        waitUntil("the replica reaches revision 11", () -> revisionOrZero() == 11);
        assertEquals("Resources", plan(2).getPlacements(0).getReason());

        stream.send(event(12).setAllocationReleased(100).build());
        waitUntil("the replica reaches revision 12", () -> revisionOrZero() == 12);
        assertEquals(true, plan(2).getPlacements(0).getStartNow());

        stream.fail();
        waitUntil("the replica is no longer served", () -> !replica.isReady());
        assertEquals(Status.Code.UNAVAILABLE, planError());

        scheduler.awaitStream().send(aCluster().atRevision(0).node("n1", 8, 0).partition("debug", "n1").snapshotEvent());
        waitUntil("the replica is served again", replica::isReady);
        assertEquals(true, plan(8).getPlacements(0).getStartNow());
    }

    private PlanResponse plan(int tasks) {
        return select.plan(PlanRequest.newBuilder().addJobs(aJob(1).tasks(tasks).proto()).build());
    }

    private Status.Code planError() {
        try {
            plan(1);
            return Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    private long revisionOrZero() {
        return replica.currentView().map(view -> view.revision()).orElse(0L);
    }

    private static ClusterEvent.Builder event(long revision) {
        return ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(revision);
    }
}
