package dev.gantry.common.events;

import static dev.gantry.common.events.ClusterEvents.added;
import static dev.gantry.common.events.ClusterEvents.released;
import static dev.gantry.common.events.ClusterEvents.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClusterEventFollowerTest {

    private static final ReconnectBackoff FAST = new ReconnectBackoff(Duration.ofMillis(1), Duration.ofMillis(20));

    private final FakeClusterEvents events = new FakeClusterEvents();
    private final RecordingListener listener = new RecordingListener();
    private String serverName;
    private Server server;
    private ManagedChannel channel;
    private ClusterEventFollower follower;

    @BeforeEach
    void setUp() throws IOException {
        serverName = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(serverName).addService(events).build().start();
        channel = InProcessChannelBuilder.forName(serverName).build();
        follower = new ClusterEventFollower(channel, "test-subscriber", listener, FAST);
    }

    @AfterEach
    void tearDown() {
        follower.close();
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void deliversTheSnapshotThenEveryChangeInRevisionOrder() throws Exception {
        follower.start();
        FakeClusterEvents.ServerStream stream = events.awaitStream();
        stream.send(snapshot("e1", 5, 2), added("e1", 6, 42), added("e1", 7, 43), released("e1", 8, 42));

        assertEquals(List.of("snapshot e1@5 nodes=2", "event e1@6 added=42", "event e1@7 added=43", "event e1@8 released=42"),
                listener.await(4));
        assertEquals("test-subscriber", stream.subscriber);
        assertTrue(follower.isReady());
    }

    @Test
    void isNotReadyUntilTheStreamDeliversItsSnapshot() throws Exception {
        follower.start();
        FakeClusterEvents.ServerStream stream = events.awaitStream();
        assertFalse(follower.isReady());
        assertEquals(FollowerState.CONNECTING, follower.state());

        stream.send(snapshot("e1", 1, 1));
        listener.await(1);
        assertTrue(follower.isReady());
        assertEquals(FollowerState.LIVE, follower.state());
    }

    @Test
    void reconnectsAfterTheServerStreamFails_andStartsAgainFromTheNewSnapshot() throws Exception {
        follower.start();
        events.awaitStream().send(snapshot("e1", 5, 1), added("e1", 6, 42)).fail(Status.UNAVAILABLE);

        FakeClusterEvents.ServerStream second = events.awaitStream();
        assertFalse(follower.isReady(), "not ready between streams");
        second.send(snapshot("e1", 9, 1), added("e1", 10, 44));

        assertEquals(List.of("snapshot e1@5 nodes=1", "event e1@6 added=42", "closed UNAVAILABLE",
                "snapshot e1@9 nodes=1", "event e1@10 added=44"), listener.await(5));
        assertTrue(follower.isReady());
    }

    @Test
    void reconnectsAfterTheServerEndsTheStream() throws Exception {
        follower.start();
        events.awaitStream().send(snapshot("e1", 5, 1)).complete();
        events.awaitStream().send(snapshot("e1", 5, 1));

        assertEquals(List.of("snapshot e1@5 nodes=1", "closed UNAVAILABLE", "snapshot e1@5 nodes=1"), listener.await(3));
    }

    @Test
    void keepsRetryingWhileTheServerRejectsTheCall() throws Exception {
        follower.start();
        events.awaitStream().fail(Status.UNAVAILABLE.withDescription("starting up"));
        events.awaitStream().fail(Status.UNAVAILABLE.withDescription("still starting up"));
        events.awaitStream().send(snapshot("e1", 1, 3));

        assertEquals(List.of("closed UNAVAILABLE", "closed UNAVAILABLE", "snapshot e1@1 nodes=3"), listener.await(3));
    }

    @Test
    void followsAServerThatStartsAfterTheFollower() throws Exception {
        server.shutdownNow().awaitTermination();
        follower.start();
        listener.await(2); // at least two failed attempts against no server at all
        server = InProcessServerBuilder.forName(serverName).addService(events).build().start();

        events.awaitStream().send(snapshot("e1", 3, 1));
        waitUntil(follower::isReady);
        assertTrue(listener.received().contains("snapshot e1@3 nodes=1"));
    }

    @Test
    void resyncsOnANewEpoch_evenWhenItsRevisionsStartLower() throws Exception {
        follower.start();
        events.awaitStream().send(snapshot("e1", 100, 2), added("e1", 101, 42)).fail(Status.UNAVAILABLE);
        events.awaitStream().send(snapshot("e2", 0, 1), added("e2", 1, 7));

        assertEquals(List.of("snapshot e1@100 nodes=2", "event e1@101 added=42", "closed UNAVAILABLE",
                "snapshot e2@0 nodes=1", "event e2@1 added=7"), listener.await(5));
    }

    @Test
    void aSnapshotInsideTheStreamStartsOverAtItsEpochAndRevision() throws Exception {
        follower.start();
        events.awaitStream().send(snapshot("e1", 5, 1), added("e1", 6, 42), snapshot("e2", 0, 2), added("e2", 1, 43));

        assertEquals(List.of("snapshot e1@5 nodes=1", "event e1@6 added=42", "snapshot e2@0 nodes=2", "event e2@1 added=43"),
                listener.await(4));
    }

    @Test
    void aRepeatedRevisionIsDropped_andTheStreamKept() throws Exception {
        follower.start();
        events.awaitStream().send(snapshot("e1", 5, 1), added("e1", 6, 42), added("e1", 6, 42), added("e1", 5, 41),
                released("e1", 7, 42));

        assertEquals(List.of("snapshot e1@5 nodes=1", "event e1@6 added=42", "event e1@7 released=42"), listener.await(3));
    }

    static Stream<Arguments> streamsThatBreakTheContract() {
        return Stream.of(
                Arguments.of("a change before any snapshot", List.of(added("e1", 6, 42)),
                        List.of("closed ABORTED")),
                Arguments.of("a revision gap", List.of(snapshot("e1", 5, 1), added("e1", 6, 42), added("e1", 8, 43)),
                        List.of("snapshot e1@5 nodes=1", "event e1@6 added=42", "closed ABORTED")),
                Arguments.of("a new epoch without a snapshot", List.of(snapshot("e1", 5, 1), added("e2", 6, 42)),
                        List.of("snapshot e1@5 nodes=1", "closed ABORTED")));
    }

    @ParameterizedTest(name = "{0}: the follower drops the stream and resyncs from a new snapshot")
    @MethodSource("streamsThatBreakTheContract")
    void aStreamThatBreaksTheContractIsDroppedAndResynced(String name, List<ClusterEvent> sent, List<String> deliveredFirst)
            throws Exception {
        follower.start();
        FakeClusterEvents.ServerStream first = events.awaitStream();
        first.send(sent.toArray(ClusterEvent[]::new));

        assertTrue(first.awaitCancelledByClient(), "the follower cancels the broken stream");
        events.awaitStream().send(snapshot("e1", 20, 1));

        List<String> expected = new java.util.ArrayList<>(deliveredFirst);
        expected.add("snapshot e1@20 nodes=1");
        assertEquals(expected, listener.await(expected.size()));
    }

    @Test
    void aListenerThatThrowsGetsAFreshSnapshot() throws Exception {
        listener.failOn(event -> event.getRevision() == 7);
        follower.start();
        FakeClusterEvents.ServerStream first = events.awaitStream();
        first.send(snapshot("e1", 5, 1), added("e1", 6, 42), added("e1", 7, 43));

        assertTrue(first.awaitCancelledByClient());
        events.awaitStream().send(snapshot("e1", 7, 1));
        assertEquals(List.of("snapshot e1@5 nodes=1", "event e1@6 added=42", "closed ABORTED", "snapshot e1@7 nodes=1"),
                listener.await(4));
    }

    @Test
    void closeCancelsTheStreamAndStopsForGood() throws Exception {
        follower.start();
        FakeClusterEvents.ServerStream stream = events.awaitStream();
        stream.send(snapshot("e1", 1, 1));
        listener.await(1);

        follower.close();

        assertTrue(stream.awaitCancelledByClient());
        assertEquals(FollowerState.CLOSED, follower.state());
        assertFalse(follower.isReady());
        follower.close(); // idempotent
        assertThrows(IllegalStateException.class, follower::start);
        assertEquals(List.of("snapshot e1@1 nodes=1"), listener.received(), "closing is not reported as a lost stream");
    }

    @Test
    void startMayBeCalledOnlyOnce() {
        follower.start();
        assertThrows(IllegalStateException.class, follower::start);
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not met within 30 s");
            Thread.sleep(5);
        }
    }
}
