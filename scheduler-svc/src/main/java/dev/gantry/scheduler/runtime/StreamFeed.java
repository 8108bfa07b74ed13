package dev.gantry.scheduler.runtime;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server-streaming client fed from a bounded queue by its own virtual thread, so the producer (the
 * controller thread) never blocks on a slow client. A client that falls {@code capacity} messages behind is
 * ended with RESOURCE_EXHAUSTED (it should call again and start from a fresh snapshot).
 *
 * @param <T> the message type
 */
public final class StreamFeed<T> {

    private static final Logger LOG = LoggerFactory.getLogger(StreamFeed.class);

    private final String name;
    private final StreamObserver<T> observer;
    private final ArrayBlockingQueue<Object> queue;
    private final java.util.function.Consumer<StreamFeed<T>> onEnd;
    private final Object closeMarker = new Object();
    private volatile Status endStatus;
    private volatile boolean ended;

    /**
     * Must be created on the gRPC thread that runs the call's handler: grpc-java lets the cancel handler be set
     * only there.
     *
     * @param onEnd run once when the feed ends for any reason (to unregister it)
     */
    StreamFeed(String name, StreamObserver<T> observer, int capacity, java.util.function.Consumer<StreamFeed<T>> onEnd) {
        this.name = name;
        this.observer = observer;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.onEnd = onEnd;
        if (observer instanceof ServerCallStreamObserver<T> server) {
            server.setOnCancelHandler(() -> end(Status.CANCELLED));
        }
    }

    String name() {
        return name;
    }

    void start() {
        Thread.ofVirtual().name("feed-" + name).start(this::drain);
    }

    /** Queues a message; ends the feed if the client is too far behind. */
    void offer(T message) {
        offerEntry(message);
    }

    private void offerEntry(Object entry) {
        if (ended) {
            return;
        }
        if (!queue.offer(entry)) {
            LOG.warn("{} fell {} messages behind; ending its stream", name, queue.size());
            end(Status.RESOURCE_EXHAUSTED.withDescription("client too slow; call again"));
        }
    }

    /**
     * Queues several messages, to be sent in order, as one entry: the feed's thread is woken once for all of them. The
     * capacity counts entries.
     */
    void offerAll(List<T> messages) {
        if (!messages.isEmpty()) {
            offerEntry(new Batch<>(List.copyOf(messages)));
        }
    }

    private record Batch<T>(List<T> messages) {}

    /** Ends the stream with {@code status} (CANCELLED: the client left, nothing is sent). */
    public void end(Status status) {
        if (ended) {
            return;
        }
        ended = true;
        endStatus = status;
        queue.clear();
        queue.offer(closeMarker);
        onEnd.accept(this);
    }

    /** True once ended (the client left, was too slow, or the server is closing). */
    boolean isEnded() {
        return ended;
    }

    @SuppressWarnings("unchecked")
    private void drain() {
        try {
            while (true) {
                Object m = queue.take();
                if (m == closeMarker) {
                    break;
                }
                if (m instanceof Batch<?> batch) {
                    for (Object one : batch.messages()) {
                        observer.onNext((T) one);
                    }
                } else {
                    observer.onNext((T) m);
                }
            }
            if (endStatus.getCode() != Status.Code.CANCELLED) {
                observer.onError(endStatus.asRuntimeException());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            end(Status.CANCELLED); // the call failed under us
        }
    }
}
