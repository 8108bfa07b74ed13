package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's revisioned event stream (see events.proto). {@link #publish} and {@link #subscribe} are
 * called on the controller thread only, so revisions follow the order of state changes and a subscriber's
 * snapshot and the events after it never overlap or leave a gap. Each subscriber is a {@link StreamFeed}:
 * a slow one never blocks the controller, and one too far behind is dropped and re-subscribes.
 *
 * <p>Events are handed to the feeds by {@link #flush}, which the controller calls at the end of each task: a task
 * that changes many things (a pass starting many jobs, a preemption) wakes each feed once, after its own work and
 * after the agent calls it made, instead of once per event while it is still computing (on a small machine the
 * woken feeds and their subscribers took the CPU from the controller thread mid-task).
 */
public final class EventLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
    static final int QUEUE_CAPACITY = 1 << 18;

    private final String epoch;
    private final List<StreamFeed<ClusterEvent>> subscribers = new CopyOnWriteArrayList<>();
    /** Published, not yet handed to the feeds (controller thread). */
    private final List<ClusterEvent> unsent = new ArrayList<>();
    /** Per job holding resources: the revision of its latest allocation event (controller thread). */
    private final java.util.Map<Long, Long> allocationRevisions = new java.util.HashMap<>();
    private long revision;
    /** The latest published events, oldest first, at most {@link #RECENT} (controller thread): see {@link #since}. */
    private final java.util.ArrayDeque<ClusterEvent> recent = new java.util.ArrayDeque<>();
    /** How many of the latest events {@link #since} can give: a few passes' worth of starts and ends. */
    static final int RECENT = 4096;

    public EventLog() {
        this.epoch = Long.toString(System.currentTimeMillis(), 36) + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    }

    public String epoch() {
        return epoch;
    }

    /** The revision of the last published event (controller thread). */
    public long revision() {
        return revision;
    }

    public int subscriberCount() {
        return subscribers.size();
    }

    /** Stamps the event with the epoch and the next revision; the next {@link #flush} sends it to every subscriber. */
    public void publish(ClusterEvent.Builder event) {
        revision++;
        switch (event.getEventCase()) {
            case ALLOCATION_ADDED -> allocationRevisions.put(event.getAllocationAdded().getJobId(), revision);
            case ALLOCATION_CHANGED -> allocationRevisions.put(event.getAllocationChanged().getJobId(), revision);
            case ALLOCATION_RELEASED -> allocationRevisions.remove(event.getAllocationReleased());
            default -> { }
        }
        ClusterEvent built = event.setEpoch(epoch).setRevision(revision).build();
        unsent.add(built);
        recent.addLast(built);
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
    }

    /**
     * The events published after {@code revision}, in order (controller thread): what a subscriber that has seen
     * {@code revision} lacks, sent along with a request so it need not wait for its stream. Empty when nothing was
     * published since, or when they are no longer all kept (more than {@link #RECENT}).
     */
    public List<ClusterEvent> since(long revision) {
        if (revision >= this.revision || recent.isEmpty() || recent.getFirst().getRevision() > revision + 1) {
            return List.of();
        }
        List<ClusterEvent> out = new ArrayList<>((int) (this.revision - revision));
        var it = recent.descendingIterator();
        while (it.hasNext()) {
            ClusterEvent e = it.next();
            if (e.getRevision() <= revision) {
                break;
            }
            out.add(e);
        }
        return out.reversed();
    }

    /**
     * The revision of the latest allocation event (added or changed) of a job that holds resources, 0 when it holds
     * none (controller thread). A decision made at an earlier revision did not see that change.
     */
    public long allocationRevision(long jobId) {
        return allocationRevisions.getOrDefault(jobId, 0L);
    }

    /** Queues the events published since the last flush for every subscriber, in revision order (controller thread). */
    public void flush() {
        if (unsent.isEmpty()) {
            return;
        }
        if (subscribers.isEmpty()) {
            unsent.clear(); // nobody to send them to; a subscriber's snapshot covers them
            return;
        }
        List<ClusterEvent> batch = List.copyOf(unsent);
        unsent.clear();
        for (StreamFeed<ClusterEvent> s : subscribers) {
            s.offerAll(batch);
        }
    }

    /** A feed for one WatchClusterEvents call; create it on the call's gRPC thread, then {@link #subscribe} it. */
    public StreamFeed<ClusterEvent> newFeed(String name, StreamObserver<ClusterEvent> observer) {
        return new StreamFeed<>("events-" + name, observer, QUEUE_CAPACITY, subscribers::remove);
    }

    /**
     * Sends {@code snapshot} at the current revision, then every later event, until the client goes away
     * (controller thread).
     */
    public void subscribe(StreamFeed<ClusterEvent> feed, ClusterSnapshot snapshot) {
        flush(); // the snapshot covers them: only the subscribers before it get them
        if (feed.isEnded()) {
            return; // the client left before the controller got to it
        }
        feed.offer(ClusterEvent.newBuilder().setEpoch(epoch).setRevision(revision).setSnapshot(snapshot).build());
        subscribers.add(feed);
        feed.start();
        LOG.info("{} subscribed to cluster events at revision {}", feed.name(), revision);
    }

    @Override
    public void close() {
        for (StreamFeed<ClusterEvent> s : subscribers) {
            s.end(Status.UNAVAILABLE.withDescription("controller shutting down"));
        }
    }
}
