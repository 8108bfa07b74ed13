package dev.gantry.scheduler.runtime;

import com.google.protobuf.MessageLite;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server-streaming client fed from a bounded queue by its own virtual thread, so the producer (the controller
 * thread) never blocks on a slow client. Memory is bounded three ways:
 * <ul>
 *   <li>the queue holds at most {@code capacity} entries, and takes memory only for what it holds (no array sized to
 *       the capacity up front: an idle stream costs next to nothing);</li>
 *   <li>the feed writes to the call only while the transport is ready for more (gRPC flow control,
 *       {@link ServerCallStreamObserver#isReady}), so a client that stops reading leaves its backlog here, counted,
 *       instead of in the transport's unbounded buffers;</li>
 *   <li>the queued bytes are reserved from a {@link FeedBudget} shared by many feeds.</li>
 * </ul>
 * A client too far behind (the queue full, or the budget spent) is ended with RESOURCE_EXHAUSTED naming the limit; it
 * should call again and start from a fresh snapshot. Thread-safe: offer from one producer thread, end from any.
 *
 * @param <T> the message type
 */
public final class StreamFeed<T extends MessageLite> {

    private static final Logger LOG = LoggerFactory.getLogger(StreamFeed.class);

    /** Why a feed was ended on the server's side (a metric label). */
    public enum Overflow { BEHIND, BUFFER }

    private final String name;
    private final StreamObserver<T> observer;
    private final ServerCallStreamObserver<T> server;
    private final int capacity;
    private final LinkedBlockingQueue<Entry> queue;
    private final FeedBudget budget;
    private final java.util.function.Consumer<StreamFeed<T>> onEnd;
    private final java.util.function.Consumer<Overflow> onOverflow;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private static final Entry CLOSE = new Entry(null, 0);
    /** Bytes of the entries queued and not yet sent, reserved from the budget (under the lock). */
    private long queuedBytes;
    private volatile Status endStatus;
    private volatile boolean ended;

    /** One queued message, or a {@link Batch} of them, and the bytes it holds. */
    private record Entry(Object payload, long bytes) {}

    private record Batch<T>(List<T> messages) {}

    /** A feed with no byte budget (the controller's own subscribers: the event stream). */
    StreamFeed(String name, StreamObserver<T> observer, int capacity, java.util.function.Consumer<StreamFeed<T>> onEnd) {
        this(name, observer, capacity, FeedBudget.UNLIMITED, onEnd, o -> { });
    }

    /**
     * Must be created on the gRPC thread that runs the call's handler: grpc-java lets the cancel and ready handlers be
     * set only there.
     *
     * @param capacity entries (a message, or a batch offered together) that may wait
     * @param budget where the bytes of waiting entries are reserved
     * @param onEnd run once when the feed ends for any reason (to unregister it)
     * @param onOverflow run once when the feed is ended for falling behind or running out of budget
     */
    StreamFeed(String name, StreamObserver<T> observer, int capacity, FeedBudget budget,
            java.util.function.Consumer<StreamFeed<T>> onEnd, java.util.function.Consumer<Overflow> onOverflow) {
        this.name = name;
        this.observer = observer;
        this.capacity = capacity;
        this.queue = new LinkedBlockingQueue<>(capacity + 1); // + the close marker
        this.budget = budget;
        this.onEnd = onEnd;
        this.onOverflow = onOverflow;
        this.server = observer instanceof ServerCallStreamObserver<T> s ? s : null;
        if (server != null) {
            server.setOnCancelHandler(() -> end(Status.CANCELLED));
            server.setOnReadyHandler(this::wake);
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
        offerEntry(message, message.getSerializedSize());
    }

    /**
     * Queues several messages, to be sent in order, as one entry: the feed's thread is woken once for all of them. The
     * capacity counts entries.
     */
    void offerAll(List<T> messages) {
        if (!messages.isEmpty()) {
            long bytes = 0;
            for (T m : messages) {
                bytes += m.getSerializedSize();
            }
            offerEntry(new Batch<>(List.copyOf(messages)), bytes);
        }
    }

    private void offerEntry(Object payload, long bytes) {
        Overflow overflow = null;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            if (queue.size() >= capacity) {
                overflow = Overflow.BEHIND;
            } else if (!budget.reserve(bytes)) {
                overflow = Overflow.BUFFER;
            } else {
                queuedBytes += bytes;
                queue.add(new Entry(payload, bytes));
            }
        } finally {
            lock.unlock();
        }
        if (overflow == Overflow.BEHIND) {
            LOG.warn("{} fell {} messages behind; ending its stream", name, capacity);
            overflowed(overflow, Status.RESOURCE_EXHAUSTED.withDescription(
                    "watch stream: the client fell " + capacity + " updates behind (its queue's capacity); call again"));
        } else if (overflow == Overflow.BUFFER) {
            LOG.warn("{}: the watchers' shared buffer is full ({} bytes); ending its stream", name, budget.capacity());
            overflowed(overflow, Status.RESOURCE_EXHAUSTED.withDescription("watch stream: the controller's buffer for "
                    + "watchers' backlogs is full (" + (budget.capacity() >> 20) + " MiB, SlurmctldParameters watch_buffer_mb); "
                    + "this stream needed " + bytes + " bytes more; call again"));
        }
    }

    private void overflowed(Overflow overflow, Status status) {
        if (end(status)) {
            onOverflow.accept(overflow);
        }
    }

    /** Ends the stream with {@code status} (CANCELLED: the client left, nothing is sent); false if already ended. */
    public boolean end(Status status) {
        lock.lock();
        try {
            if (ended) {
                return false;
            }
            ended = true;
            endStatus = status;
            budget.release(queuedBytes);
            queuedBytes = 0;
            queue.clear();
            queue.add(CLOSE);
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        onEnd.accept(this);
        return true;
    }

    /** True once ended (the client left, was too slow, or the server is closing). */
    boolean isEnded() {
        return ended;
    }

    /** Bytes queued and not yet sent (for tests and metrics). */
    long queuedBytes() {
        lock.lock();
        try {
            return queuedBytes;
        } finally {
            lock.unlock();
        }
    }

    private void wake() {
        lock.lock();
        try {
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the transport takes more; false when the feed ended meanwhile. */
    private boolean awaitReady() throws InterruptedException {
        if (server == null) {
            return !ended;
        }
        lock.lock();
        try {
            while (!ended && !server.isReady()) {
                ready.await();
            }
            return !ended;
        } finally {
            lock.unlock();
        }
    }

    /** The entry went out: its bytes are no longer held here. */
    private void sent(Entry e) {
        lock.lock();
        try {
            if (!ended) {
                queuedBytes -= e.bytes();
                budget.release(e.bytes());
            }
        } finally {
            lock.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    private void drain() {
        try {
            while (true) {
                Entry e = queue.take();
                if (e == CLOSE) {
                    break;
                }
                if (e.payload() instanceof Batch<?> batch) {
                    for (Object one : batch.messages()) {
                        if (!awaitReady()) {
                            break;
                        }
                        observer.onNext((T) one);
                    }
                } else if (awaitReady()) {
                    observer.onNext((T) e.payload());
                }
                sent(e);
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
