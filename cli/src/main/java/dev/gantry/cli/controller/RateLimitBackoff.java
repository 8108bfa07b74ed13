package dev.gantry.cli.controller;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;

/**
 * What Slurm's commands do when the controller says they are too chatty (SlurmctldParameters rl_*: Slurm's
 * slurm_send_recv_controller_msg sleeps a second and tries again, "RPC rate limited N time(s)"): a unary call refused
 * RESOURCE_EXHAUSTED by the controller's rate limit is sent again after a pause, until it gets through or its
 * deadline passes. Other refusals, and streams, are answered as they come. The pause runs on a virtual thread, never
 * on the transport's; the retried call's answers reach the caller as the first call's would have.
 *
 * <p>With several controller addresses (an active controller and its standby), a unary call answered UNAVAILABLE (the
 * address refused it, or a standby redirected it) is sent again at once, up to {@code failovers} times: the channel
 * below ({@code common.failover.FollowingChannel}) has moved on to the next or the named address meanwhile.
 */
public final class RateLimitBackoff implements ClientInterceptor {

    /** How the controller's rate limit words its refusals (grpc.RequestLimits). */
    static final String PREFIX = "rate limit:";

    /** Waits; replaced in tests. */
    @FunctionalInterface
    public interface Pause {
        void sleep(long millis) throws InterruptedException;
    }

    private final long pauseMillis;
    private final Pause pause;
    private final int failovers;

    /** Slurm's: one second between tries. */
    public RateLimitBackoff() {
        this(1000, Thread::sleep);
    }

    public RateLimitBackoff(long pauseMillis, Pause pause) {
        this(pauseMillis, pause, 0);
    }

    /** @param failovers how many times a call answered UNAVAILABLE is sent again (to the next controller address) */
    public RateLimitBackoff(long pauseMillis, Pause pause, int failovers) {
        this.pauseMillis = pauseMillis;
        this.pause = pause;
        this.failovers = failovers;
    }

    static boolean rateLimited(Status status) {
        return status.getCode() == Status.Code.RESOURCE_EXHAUSTED && status.getDescription() != null
                && status.getDescription().startsWith(PREFIX);
    }

    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
        if (method.getType() != MethodDescriptor.MethodType.UNARY) {
            return next.newCall(method, options);
        }
        return new Retrying<>(method, options, next);
    }

    /** A unary call that keeps its request until it is answered by something other than the rate limit. */
    private final class Retrying<Q, A> extends ClientCall<Q, A> {
        private final MethodDescriptor<Q, A> method;
        private final CallOptions options;
        private final Channel next;
        private Listener<A> listener;
        private Metadata headers;
        private Q message;
        private volatile ClientCall<Q, A> current;
        private volatile boolean cancelled;
        private int failoversLeft = failovers;

        Retrying(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            this.method = method;
            this.options = options;
            this.next = next;
        }

        @Override
        public void start(Listener<A> listener, Metadata headers) {
            this.listener = listener;
            this.headers = headers;
        }

        @Override
        public void request(int numMessages) {
            // a unary call's one answer is asked for on every try
        }

        @Override
        public void sendMessage(Q message) {
            this.message = message;
        }

        @Override
        public void halfClose() {
            attempt();
        }

        @Override
        public void cancel(String why, Throwable cause) {
            cancelled = true;
            ClientCall<Q, A> call = current;
            if (call != null) {
                call.cancel(why, cause);
            }
        }

        @Override
        public boolean isReady() {
            ClientCall<Q, A> call = current;
            return call == null || call.isReady();
        }

        private void attempt() {
            ClientCall<Q, A> call = next.newCall(method, options);
            current = call;
            Metadata copy = new Metadata();
            copy.merge(headers);
            call.start(new Listener<>() {
                private Metadata answerHeaders;
                private A answer;

                @Override
                public void onHeaders(Metadata h) {
                    answerHeaders = h;
                }

                @Override
                public void onMessage(A a) {
                    answer = a;
                }

                @Override
                public void onClose(Status status, Metadata trailers) {
                    if (rateLimited(status) && !cancelled) {
                        Thread.ofVirtual().name("rate-limit-backoff").start(this::later);
                        return;
                    }
                    if (status.getCode() == Status.Code.UNAVAILABLE && failoversLeft > 0 && !cancelled) {
                        failoversLeft--;
                        attempt(); // the following channel sends it to the next (or the redirect's) controller
                        return;
                    }
                    if (answerHeaders != null) {
                        listener.onHeaders(answerHeaders);
                    }
                    if (answer != null) {
                        listener.onMessage(answer);
                    }
                    listener.onClose(status, trailers);
                }

                private void later() {
                    try {
                        pause.sleep(pauseMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        cancelled = true;
                    }
                    if (cancelled) {
                        Runnable close = () -> listener.onClose(Status.CANCELLED.withDescription("cancelled while rate limited"),
                                new Metadata());
                        if (options.getExecutor() != null) {
                            options.getExecutor().execute(close); // where the caller takes its call's answers
                        } else {
                            close.run();
                        }
                    } else {
                        attempt();
                    }
                }
            }, copy);
            call.request(1);
            call.sendMessage(message);
            call.halfClose();
        }
    }
}
