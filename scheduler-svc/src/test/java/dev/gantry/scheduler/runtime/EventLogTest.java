package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The event stream over a real gRPC call, wired as ClusterEventsGrpcService wires it: the feed is made on the
 * call's thread, the subscription happens later on another (the controller) thread.
 */
class EventLogTest {

    private final EventLog log = new EventLog();
    private final ExecutorService controllerThread = Executors.newSingleThreadExecutor();
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void start() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(new ClusterEventsGrpc.ClusterEventsImplBase() {
            @Override
            public void watchClusterEvents(WatchClusterEventsRequest request, StreamObserver<ClusterEvent> out) {
                var feed = log.newFeed(request.getSubscriber(), out);
                controllerThread.execute(() -> log.subscribe(feed, ClusterSnapshot.getDefaultInstance()));
            }
        }).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow();
        server.shutdownNow();
        controllerThread.shutdownNow();
    }

    private void publishOnController(int n) throws Exception {
        controllerThread.submit(() -> {
            for (int i = 0; i < n; i++) {
                log.publish(ClusterEvent.newBuilder().setAllocationReleased(i));
            }
            log.flush(); // as the controller does at the end of each task
        }).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSubscriberGetsTheSnapshotThenEveryEventInRevisionOrder() throws Exception {
        publishOnController(2); // before the subscription: covered by the snapshot's revision
        Iterator<ClusterEvent> stream = ClusterEventsGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .watchClusterEvents(WatchClusterEventsRequest.newBuilder().setSubscriber("test").build());
        ClusterEvent first = stream.next();
        assertTrue(first.hasSnapshot());
        assertEquals(2, first.getRevision());
        assertEquals(log.epoch(), first.getEpoch());
        publishOnController(3);
        List<Long> revisions = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            revisions.add(stream.next().getRevision());
        }
        assertEquals(List.of(3L, 4L, 5L), revisions);
    }

    @Test
    void eventsNotYetFlushedWhenAClientSubscribes_reachEarlierSubscribersOnly_andItsSnapshotCoversThem() throws Exception {
        Iterator<ClusterEvent> earlier = watch("earlier");
        assertTrue(earlier.next().hasSnapshot());
        controllerThread.submit(() -> log.publish(ClusterEvent.newBuilder().setAllocationReleased(7))).get(10, TimeUnit.SECONDS);

        Iterator<ClusterEvent> later = watch("later"); // subscribed in a later task: the published event is not flushed yet
        ClusterEvent snapshot = later.next();
        ClusterEvent pending = earlier.next();
        publishOnController(1);

        assertTrue(snapshot.hasSnapshot());
        assertEquals(1, snapshot.getRevision(), "the snapshot covers the event published before it");
        assertEquals(1, pending.getRevision());
        assertEquals(7, pending.getAllocationReleased());
        assertEquals(2, later.next().getRevision(), "no gap and no overlap after the snapshot");
        assertEquals(2, earlier.next().getRevision());
    }

    private Iterator<ClusterEvent> watch(String subscriber) {
        return ClusterEventsGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .watchClusterEvents(WatchClusterEventsRequest.newBuilder().setSubscriber(subscriber).build());
    }

    @Test
    void aClientThatLeavesIsUnsubscribed() throws Exception {
        var call = io.grpc.Context.current().withCancellation();
        var seen = new java.util.concurrent.CountDownLatch(1);
        call.run(() -> ClusterEventsGrpc.newStub(channel).watchClusterEvents(
                WatchClusterEventsRequest.newBuilder().setSubscriber("leaver").build(), new StreamObserver<>() {
                    @Override public void onNext(ClusterEvent value) { seen.countDown(); }
                    @Override public void onError(Throwable t) {}
                    @Override public void onCompleted() {}
                }));
        assertTrue(seen.await(10, TimeUnit.SECONDS), "the snapshot arrives");
        assertEquals(1, log.subscriberCount());
        call.cancel(null);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.subscriberCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, log.subscriberCount());
    }

    @Test
    void since_givesTheEventsAfterARevision_whileTheyAreAllKept() {
        EventLog events = new EventLog();
        assertEquals(List.of(), events.since(0), "nothing published");
        for (int i = 0; i < 5; i++) {
            events.publish(ClusterEvent.newBuilder().setAllocationReleased(i));
        }
        assertEquals(List.of(3L, 4L, 5L), events.since(2).stream().map(ClusterEvent::getRevision).toList());
        assertEquals(5, events.since(0).size());
        assertEquals(List.of(), events.since(5), "the reader has everything");

        for (int i = 0; i < EventLog.RECENT; i++) {
            events.publish(ClusterEvent.newBuilder().setAllocationReleased(i));
        }
        assertEquals(List.of(), events.since(2), "revisions 3 and 4 are no longer kept: nothing rather than a gap");
        assertEquals(EventLog.RECENT, events.since(5).size());
        assertEquals(events.epoch(), events.since(5).getFirst().getEpoch());
    }
}
