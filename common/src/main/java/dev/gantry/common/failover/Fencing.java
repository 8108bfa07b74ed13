package dev.gantry.common.failover;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The controller's fencing number on the wire (docs/ARCHITECTURE.md, "Standby controller"): every call scheduler-svc
 * makes on a peer (an agent's LaunchJob, Terminate, Signal, Suspend, Resume…; select-svc's Plan, EarliestStarts…)
 * carries it in the {@code gantry-fencing} header ({@link #stamp}), and so do the headers of scheduler-svc's answers on
 * its internal port ({@link #announce}: agents, select-svc and gang-svc learn it from their registration, event stream
 * and GangControl answers). A peer keeps the highest number it has seen ({@link Guard}), refuses a call carrying a
 * lower one with FAILED_PRECONDITION "fenced: controller fencing N < M", and takes no answer that carries a lower one
 * ({@link Guard#learn}): a deposed controller, paused past its lease and resumed, can launch or stop nothing on a peer,
 * and feed no replica, once the peer has heard from its successor. A call without the header (srun's, another agent's
 * forwarded launch, an older controller) is not checked.
 */
public final class Fencing {

    private Fencing() {}

    /** The header: the controller's fencing number, decimal. */
    public static final Metadata.Key<String> HEADER = Metadata.Key.of("gantry-fencing", Metadata.ASCII_STRING_MARSHALLER);

    /** Adds this controller's fencing number (when > 0) to every call's headers. */
    public static ClientInterceptor stamp(LongSupplier fencing) {
        return stamp(fencing, () -> true);
    }

    /**
     * As {@link #stamp(LongSupplier)}, and sends nothing while {@code held} says the lease may be another's (a
     * controller resumed after a pause, in the moment before it stops): such a call ends FAILED_PRECONDITION at once.
     */
    public static ClientInterceptor stamp(LongSupplier fencing, java.util.function.BooleanSupplier held) {
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                if (!held.getAsBoolean()) {
                    return new dev.gantry.common.service.RefusedCall<>(Status.FAILED_PRECONDITION.withDescription(
                            "fenced: this controller's lease may be another's (fencing " + fencing.getAsLong() + ")"));
                }
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        long f = fencing.getAsLong();
                        if (f > 0) {
                            headers.put(HEADER, Long.toString(f));
                        }
                        super.start(listener, headers);
                    }
                };
            }
        };
    }

    /** Adds this controller's fencing number (when > 0) to the headers of every answer it serves. */
    public static ServerInterceptor announce(LongSupplier fencing) {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                    @Override
                    public void sendHeaders(Metadata responseHeaders) {
                        long f = fencing.getAsLong();
                        if (f > 0) {
                            responseHeaders.put(HEADER, Long.toString(f));
                        }
                        super.sendHeaders(responseHeaders);
                    }
                }, headers);
            }
        };
    }

    /** How the description of a call refused by {@link Guard#learn} begins. */
    static final String STALE_ANSWER = "fenced: answer from controller fencing ";

    /** Whether {@code status} is a {@link Guard#learn} refusal: the answer came from a deposed controller. */
    public static boolean isStaleAnswer(Status status) {
        return status.getCode() == Status.Code.FAILED_PRECONDITION && status.getDescription() != null
                && status.getDescription().startsWith(STALE_ANSWER);
    }

    /** The number in {@code headers}, or 0 when absent or malformed. */
    static long read(Metadata headers) {
        String v = headers == null ? null : headers.get(HEADER);
        if (v == null) {
            return 0;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A peer's memory of the highest fencing number it has seen, and the check of each call against it. Thread-safe.
     * {@link #learn} on the peer's channel to the controller learns from the answers' headers; as a server interceptor
     * it checks (and learns from) every call.
     */
    public static final class Guard implements ServerInterceptor {
        private final AtomicLong highest = new AtomicLong();
        private final Runnable onRefused;

        /** @param onRefused told of each refused call (a metric) */
        public Guard(Runnable onRefused) {
            this.onRefused = onRefused;
        }

        /** The highest fencing number seen, 0 if none. */
        public long highest() {
            return highest.get();
        }

        /** Whether a call carrying {@code fencing} (0: none) may proceed; raises the highest seen. */
        public boolean admit(long fencing) {
            if (fencing <= 0) {
                return true;
            }
            long seen = highest.accumulateAndGet(fencing, Math::max);
            return fencing >= seen;
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            long f = read(headers);
            if (!admit(f)) {
                onRefused.run();
                call.close(Status.FAILED_PRECONDITION.withDescription("fenced: controller fencing " + f + " < " + highest.get()
                        + " (a newer controller is active)"), new Metadata());
                return new ServerCall.Listener<>() {};
            }
            return next.startCall(call, headers);
        }

        /**
         * On a channel to the controller: learns from the headers of its answers, and refuses an answer from a controller
         * older than one already heard (a deposed one, still answering in the moment before it stops). Such a call's
         * messages are dropped and it ends FAILED_PRECONDITION "fenced: answer from controller fencing N < M"
         * ({@link #isStaleAnswer}); the {@link FollowingChannel} then moves on to the next address.
         */
        public ClientInterceptor learn() {
            return new ClientInterceptor() {
                @Override
                public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                        private volatile Status stale;

                        @Override
                        public void start(Listener<R> listener, Metadata headers) {
                            ClientCall<Q, R> call = delegate();
                            super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                                @Override
                                public void onHeaders(Metadata answer) {
                                    long f = read(answer);
                                    if (!admit(f)) {
                                        onRefused.run();
                                        stale = Status.FAILED_PRECONDITION.withDescription(STALE_ANSWER + f + " < " + highest.get()
                                                + " (a newer controller is active)");
                                        call.cancel("answer from a deposed controller", null);
                                        return;
                                    }
                                    super.onHeaders(answer);
                                }

                                @Override
                                public void onMessage(R message) {
                                    if (stale == null) {
                                        super.onMessage(message);
                                    }
                                }

                                @Override
                                public void onClose(Status status, Metadata trailers) {
                                    Status s = stale;
                                    super.onClose(s == null ? status : s, s == null ? trailers : new Metadata());
                                }
                            }, headers);
                        }
                    };
                }
            };
        }
    }
}
