package dev.gantry.common.events;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Records what the follower delivered as short lines, e.g. "snapshot e1@5 nodes=1", "event e1@6 released=42". */
final class RecordingListener implements ClusterEventListener {

    private final List<String> received = new ArrayList<>();
    private Predicate<ClusterEvent> failOn = event -> false;

    /** Makes {@link #onEvent} throw for events matching {@code predicate} (once each time it matches). */
    synchronized void failOn(Predicate<ClusterEvent> predicate) {
        this.failOn = predicate;
    }

    @Override
    public synchronized void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        received.add("snapshot " + epoch + "@" + revision + " nodes=" + snapshot.getNodesCount());
        notifyAll();
    }

    @Override
    public synchronized void onEvent(ClusterEvent event) {
        if (failOn.test(event)) {
            failOn = e -> false;
            throw new IllegalStateException("listener rejects revision " + event.getRevision());
        }
        received.add("event " + event.getEpoch() + "@" + event.getRevision() + " " + ClusterEvents.describe(event));
        notifyAll();
    }

    @Override
    public synchronized void onStreamClosed(Status status) {
        received.add("closed " + status.getCode());
        notifyAll();
    }

    /** Everything received so far, once at least {@code count} lines arrived (waits generously). */
    synchronized List<String> await(int count) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (received.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                fail("expected " + count + " deliveries, got " + received);
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return List.copyOf(received);
    }

    synchronized List<String> received() {
        return List.copyOf(received);
    }
}
