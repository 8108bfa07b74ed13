package dev.gantry.common.failover;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A channel to whichever of several controllers is active: each call goes to the address that answered last; a call
 * that ends UNAVAILABLE (connection refused: a standby keeps its internal port closed; or a standby's redirect) or
 * DEADLINE_EXCEEDED (a frozen controller), or that a {@link Fencing.Guard#learn} below refused (a deposed controller
 * answered), moves the next calls to the address the redirect names, else to the next address in order. Calls already made are not retried here: the callers retry as they do after any failure
 * (registration backoff, the event follower's reconnect). Thread-safe.
 */
public final class FollowingChannel extends ManagedChannel {

    private final List<String> targets;
    private final List<ManagedChannel> channels;
    private final AtomicInteger current = new AtomicInteger();
    /** The selection below {@code interceptors}: a call an interceptor sends again goes to the address chosen then. */
    private final io.grpc.Channel intercepted;

    private FollowingChannel(List<String> targets, List<ManagedChannel> channels, io.grpc.ClientInterceptor... interceptors) {
        this.targets = targets;
        this.channels = channels;
        this.intercepted = io.grpc.ClientInterceptors.intercept(new io.grpc.Channel() {
            @Override
            public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
                return select(method, options);
            }

            @Override
            public String authority() {
                return FollowingChannel.this.authority();
            }
        }, interceptors);
    }

    /** One channel per address ({@code open} makes each); a single address is its plain channel. */
    public static ManagedChannel open(List<String> targets, Function<String, ManagedChannel> open) {
        return open(targets, open, new io.grpc.ClientInterceptor[0]);
    }

    /**
     * As {@link #open(List, Function)}, calls going through {@code interceptors} first (one that sends a failed call
     * again, as the commands' does, reaches the next address).
     */
    public static ManagedChannel open(List<String> targets, Function<String, ManagedChannel> open, io.grpc.ClientInterceptor... interceptors) {
        if (targets.size() == 1) {
            return open.apply(targets.get(0));
        }
        List<ManagedChannel> channels = new ArrayList<>();
        for (String t : targets) {
            channels.add(open.apply(t));
        }
        return new FollowingChannel(List.copyOf(targets), List.copyOf(channels), interceptors);
    }

    /** The addresses, in order. */
    public List<String> targets() {
        return targets;
    }

    /** The plain channel to {@code target} (one of {@link #targets}), bypassing the selection. */
    public ManagedChannel channelTo(String target) {
        return channels.get(targets.indexOf(target));
    }

    /** The next calls go to {@code target} (one of {@link #targets}): the caller found it to be the active one. */
    public void prefer(String target) {
        int i = targets.indexOf(target);
        if (i < 0) {
            throw new IllegalArgumentException(target + " is not one of " + targets);
        }
        current.set(i);
    }

    /** The address calls go to now. */
    public String target() {
        return targets.get(current.get());
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        return intercepted.newCall(method, options);
    }

    private <Q, R> ClientCall<Q, R> select(MethodDescriptor<Q, R> method, CallOptions options) {
        int index = current.get();
        return new ForwardingClientCall.SimpleForwardingClientCall<>(channels.get(index).newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        if (status.getCode() == Status.Code.UNAVAILABLE || status.getCode() == Status.Code.DEADLINE_EXCEEDED
                                || Fencing.isStaleAnswer(status)) { // a deposed controller answered: its successor is elsewhere
                            String named = trailers == null ? null : trailers.get(ControllerRedirect.ACTIVE_CONTROLLER);
                            int next = named != null && targets.contains(named) && targets.indexOf(named) != index
                                    ? targets.indexOf(named) : (index + 1) % targets.size();
                            current.compareAndSet(index, next);
                        }
                        super.onClose(status, trailers);
                    }
                }, headers);
            }
        };
    }

    @Override
    public String authority() {
        return channels.get(current.get()).authority();
    }

    @Override
    public ManagedChannel shutdown() {
        channels.forEach(ManagedChannel::shutdown);
        return this;
    }

    @Override
    public ManagedChannel shutdownNow() {
        channels.forEach(ManagedChannel::shutdownNow);
        return this;
    }

    @Override
    public boolean isShutdown() {
        return channels.stream().allMatch(ManagedChannel::isShutdown);
    }

    @Override
    public boolean isTerminated() {
        return channels.stream().allMatch(ManagedChannel::isTerminated);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (ManagedChannel c : channels) {
            if (!c.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }
}
