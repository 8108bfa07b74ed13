package dev.gantry.common.events;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows scheduler-svc's revisioned event stream ({@code gantry.v1.ClusterEvents/WatchClusterEvents}, see
 * events.proto) and hands it to a {@link ClusterEventListener}. Plain grpc-java, no framework.
 *
 * <p>Contract:
 * <ul>
 *   <li>After {@link #start()} it keeps at most one stream open. When a stream fails or ends it opens a new one after
 *       a {@link ReconnectBackoff} delay, until {@link #close()}.</li>
 *   <li>Each stream must start with a snapshot. The listener gets {@code onSnapshot} for every snapshot and
 *       {@code onEvent} for every change after it, in revision order.</li>
 *   <li>Within an epoch a change must carry the revision right after the last one delivered. A change at an older or
 *       equal revision is dropped (a repeat); a gap, a change before any snapshot, or a change in another epoch
 *       without a snapshot ends the stream and the follower resyncs from a new stream's snapshot.</li>
 *   <li>When the listener throws, the follower resyncs the same way: the listener's replica may be inconsistent.</li>
 *   <li>Listener methods run one at a time, never concurrently; once {@link #close()} returns none runs again.</li>
 * </ul>
 *
 * <p>Thread-safety: all public methods may be called from any thread.
 */
public final class ClusterEventFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterEventFollower.class);

    private final Channel channel;
    private final boolean ownsChannel;
    private final WatchClusterEventsRequest request;
    private final ClusterEventListener listener;
    private final ReconnectBackoff backoff;
    private final ScheduledExecutorService retryTimer;
    private final Object lock = new Object();

    private volatile FollowerState state = FollowerState.NEW;
    // Guarded by lock.
    private Stream current;
    private int consecutiveFailures;

    /** Follows the stream over {@code channel}, which the caller owns (and shuts down after {@link #close()}). */
    public ClusterEventFollower(Channel channel, String subscriber, ClusterEventListener listener, ReconnectBackoff backoff) {
        this(channel, false, subscriber, listener, backoff);
    }

    private ClusterEventFollower(Channel channel, boolean ownsChannel, String subscriber,
                                 ClusterEventListener listener, ReconnectBackoff backoff) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.ownsChannel = ownsChannel;
        this.request = WatchClusterEventsRequest.newBuilder().setSubscriber(Objects.requireNonNull(subscriber, "subscriber")).build();
        this.listener = Objects.requireNonNull(listener, "listener");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.retryTimer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cluster-events-" + subscriber);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Follows the stream over {@code channel}, which the follower shuts down on {@link #close()} (in the services: a
     * mutual-TLS channel to scheduler-svc's internal port, {@code dev.gantry.common.tls.InternalChannels}).
     */
    public static ClusterEventFollower owning(ManagedChannel channel, String subscriber, ClusterEventListener listener,
                                              ReconnectBackoff backoff) {
        return new ClusterEventFollower(channel, true, subscriber, listener, backoff);
    }

    /**
     * Follows scheduler-svc's stream at {@code address} (its internal port) over a mutual-TLS channel of its own, from
     * now until {@link #close()}: select-svc's and gang-svc's replicas, reconnecting with the default backoff.
     */
    public static ClusterEventFollower followScheduler(dev.gantry.common.tls.InternalChannels channels, String address,
                                                       String subscriber, ClusterEventListener listener) {
        return followScheduler(channels, address, subscriber, listener, new dev.gantry.common.failover.Fencing.Guard(() -> { }));
    }

    /**
     * As above, taking no stream from a controller older than one {@code fencing} has heard (a deposed one): the stream
     * ends and the next one is opened on the next address.
     */
    public static ClusterEventFollower followScheduler(dev.gantry.common.tls.InternalChannels channels, String address,
                                                       String subscriber, ClusterEventListener listener,
                                                       dev.gantry.common.failover.Fencing.Guard fencing) {
        LOG.info("following cluster events from scheduler-svc at {}", address);
        ClusterEventFollower follower = owning(dev.gantry.common.tls.SchedulerChannels.open(channels, address, fencing), subscriber,
                listener, ReconnectBackoff.DEFAULT);
        follower.start();
        return follower;
    }

    /** Opens the first stream (asynchronously). May be called once. */
    public void start() {
        synchronized (lock) {
            if (state != FollowerState.NEW) {
                throw new IllegalStateException("follower already started (state " + state + ")");
            }
            state = FollowerState.CONNECTING;
            retryTimer.execute(this::connect);
        }
    }

    /** Whether the current stream has delivered its snapshot, so the listener's replica is current. */
    public boolean isReady() {
        return state == FollowerState.LIVE;
    }

    public FollowerState state() {
        return state;
    }

    /**
     * Cancels the open stream and stops reconnecting. Idempotent. When it returns no listener method is running
     * and none will run again.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (state == FollowerState.CLOSED) {
                return;
            }
            state = FollowerState.CLOSED;
            Stream stream = current;
            current = null;
            if (stream != null) {
                stream.call.cancel("follower closed", null);
            }
        }
        retryTimer.shutdownNow();
        if (ownsChannel) {
            ((ManagedChannel) channel).shutdownNow();
        }
    }

    private void connect() {
        synchronized (lock) {
            if (state == FollowerState.CLOSED) {
                return;
            }
            state = FollowerState.CONNECTING;
            if (channel instanceof ManagedChannel managed) {
                // The channel has its own, much longer reconnect backoff; ours is the one that should apply.
                managed.resetConnectBackoff();
            }
            Stream stream = new Stream();
            current = stream;
            try {
                ClusterEventsGrpc.newStub(channel).watchClusterEvents(request, stream);
            } catch (RuntimeException e) {
                streamEnded(stream, Status.fromThrowable(e));
            }
        }
    }

    /** Called with lock held, for the current stream only. */
    private void receive(Stream stream, ClusterEvent event) {
        if (event.hasSnapshot()) {
            if (state != FollowerState.LIVE || !event.getEpoch().equals(stream.epoch)) {
                LOG.info("{}: following cluster events from a snapshot at epoch {} revision {}", request.getSubscriber(),
                        event.getEpoch(), event.getRevision());
            }
            stream.epoch = event.getEpoch();
            stream.revision = event.getRevision();
            state = FollowerState.LIVE;
            consecutiveFailures = 0;
            deliver(stream, () -> listener.onSnapshot(event.getEpoch(), event.getRevision(), event.getSnapshot()));
            return;
        }
        if (stream.epoch == null) {
            resync(stream, "stream did not start with a snapshot (first event at revision " + event.getRevision() + ")");
        } else if (!stream.epoch.equals(event.getEpoch())) {
            resync(stream, "epoch changed from " + stream.epoch + " to " + event.getEpoch() + " without a snapshot");
        } else if (event.getRevision() <= stream.revision) {
            LOG.debug("dropping repeated revision {} (at {})", event.getRevision(), stream.revision);
        } else if (event.getRevision() != stream.revision + 1) {
            resync(stream, "revision gap: expected " + (stream.revision + 1) + ", got " + event.getRevision());
        } else {
            stream.revision = event.getRevision();
            deliver(stream, () -> listener.onEvent(event));
        }
    }

    /** Runs a listener method; a listener failure means its replica may be inconsistent, so resync. */
    private void deliver(Stream stream, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.error("cluster event listener failed; resyncing from a new snapshot", e);
            resync(stream, "listener failed: " + e);
        }
    }

    /** Drops the current stream on purpose and opens a new one (and so gets a new snapshot). Lock held. */
    private void resync(Stream stream, String reason) {
        LOG.warn("resyncing cluster event stream: {}", reason);
        streamEnded(stream, Status.ABORTED.withDescription(reason));
        stream.call.cancel(reason, null);
    }

    /** The current stream is over: tell the listener and schedule the next one. Lock held. */
    private void streamEnded(Stream stream, Status status) {
        if (stream != current || state == FollowerState.CLOSED) {
            return;
        }
        current = null;
        consecutiveFailures++;
        Duration delay = backoff.delayAfter(consecutiveFailures);
        state = FollowerState.WAITING_TO_RETRY;
        // The first failure in a row is news; the retries after it (every few seconds while scheduler-svc is
        // down) are not.
        if (consecutiveFailures == 1) {
            LOG.info("cluster event stream closed ({}); reconnecting, first in {} ms", describe(status), delay.toMillis());
        } else {
            LOG.debug("cluster event stream attempt {} failed ({}); retrying in {} ms", consecutiveFailures,
                    describe(status), delay.toMillis());
        }
        try {
            listener.onStreamClosed(status);
        } catch (RuntimeException e) {
            LOG.error("cluster event listener failed on stream close", e);
        }
        retryTimer.schedule(this::connect, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The status code and description, and the cause's message: no stack trace for an expected failure. */
    private static String describe(Status status) {
        StringBuilder text = new StringBuilder(status.getCode().name());
        if (status.getDescription() != null) {
            text.append(": ").append(status.getDescription());
        }
        if (status.getCause() != null) {
            text.append(" (").append(status.getCause().getMessage()).append(')');
        }
        return text.toString();
    }

    /** One WatchClusterEvents call; its callbacks are ignored once it is no longer {@link #current}. */
    private final class Stream implements ClientResponseObserver<WatchClusterEventsRequest, ClusterEvent> {
        private ClientCallStreamObserver<WatchClusterEventsRequest> call;
        private String epoch;   // null until this stream's first snapshot
        private long revision;

        @Override
        public void beforeStart(ClientCallStreamObserver<WatchClusterEventsRequest> call) {
            this.call = call;
        }

        @Override
        public void onNext(ClusterEvent event) {
            synchronized (lock) {
                if (this == current && state != FollowerState.CLOSED) {
                    receive(this, event);
                }
            }
        }

        @Override
        public void onError(Throwable error) {
            synchronized (lock) {
                streamEnded(this, Status.fromThrowable(error));
            }
        }

        @Override
        public void onCompleted() {
            synchronized (lock) {
                streamEnded(this, Status.UNAVAILABLE.withDescription("stream ended by the server"));
            }
        }
    }
}
