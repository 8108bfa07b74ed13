package dev.gantry.scheduler.grpc;

import dev.gantry.common.auth.Identity;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.config.SlurmctldParameters;
import dev.gantry.scheduler.limits.RequestRate;
import dev.gantry.scheduler.limits.StreamQuota;
import dev.gantry.scheduler.runtime.RefusalMetrics;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client API's limits, applied to every call of the guarded services after its caller is authenticated (it reads
 * {@link Callers#current()}, so it must run inside {@link Callers}: see {@link #after}). Over the request rate limit
 * ({@link RequestRate}) or, for a server-streaming call, over the stream caps ({@link StreamQuota}), the call ends
 * RESOURCE_EXHAUSTED naming the limit before its handler runs. Also counts PERMISSION_DENIED answers by method.
 * Thread-safe: the pure deciders are used under this object's locks.
 */
public final class RequestLimits implements ServerInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestLimits.class);

    private final Set<String> guardedServices;
    private final RequestRate rate;
    private final StreamQuota streams;
    private final InstantSource clock;
    private final RefusalMetrics metrics;
    /**
     * uids refused since their last admitted request, so that each run of refusals is logged once (under the lock of
     * {@link #rate}; at most rl_table_size entries, as only tracked users are refused).
     */
    private final Set<Long> limitedNow = new HashSet<>();

    public RequestLimits(Set<String> guardedServices, SlurmctldParameters parameters, String slurmUser, InstantSource clock,
            RefusalMetrics metrics) {
        this.guardedServices = Set.copyOf(guardedServices);
        this.rate = new RequestRate(parameters.rateLimit(), slurmUser);
        this.streams = new StreamQuota(parameters.watch());
        this.clock = clock;
        this.metrics = metrics;
    }

    /** {@code callers} first (authentication), then these limits: one interceptor, in that order whatever the server's. */
    public ServerInterceptor after(ServerInterceptor callers) {
        RequestLimits limits = this;
        return new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
                return callers.interceptCall(call, headers, (c, h) -> limits.interceptCall(c, h, next));
            }
        };
    }

    /** Streams open now. */
    public int openStreams() {
        synchronized (streams) {
            return streams.total();
        }
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        MethodDescriptor<Q, A> method = call.getMethodDescriptor();
        if (!guardedServices.contains(method.getServiceName())) {
            return next.startCall(call, headers);
        }
        Identity who = Callers.current();
        Status limited = rateLimited(who, method);
        if (limited != null) {
            return refuse(call, limited);
        }
        ServerCall<Q, A> counted = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                if (status.getCode() == Status.Code.PERMISSION_DENIED) {
                    metrics.permissionDenied(method.getBareMethodName());
                }
                super.close(status, trailers);
            }
        };
        if (method.getType().serverSendsOneMessage()) {
            return next.startCall(counted, headers);
        }
        return stream(counted, headers, next, who.user());
    }

    /** Takes a token for the call: null when admitted, else the refusal to answer. */
    private Status rateLimited(Identity who, MethodDescriptor<?, ?> method) {
        RequestRate.Verdict v;
        boolean first = false;
        synchronized (rate) {
            v = rate.admit(who.user(), who.uid(), clock.instant());
            if (v instanceof RequestRate.Limited) {
                first = limitedNow.add(who.uid());
            } else if (!limitedNow.isEmpty()) {
                limitedNow.remove(who.uid());
            }
        }
        switch (v) {
            case RequestRate.Limited l -> {
                metrics.rateLimited();
                if (first) {
                    LOG.info("rate limit exceeded by {} (uid {}) with {}: refusing until a token comes back ({})", who.user(),
                            who.uid(), method.getBareMethodName(), l.message());
                }
                return Status.RESOURCE_EXHAUSTED.withDescription(l.message());
            }
            case RequestRate.Untracked u -> {
                metrics.untracked();
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private <Q, A> ServerCall.Listener<Q> stream(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next,
            String user) {
        StreamQuota.Admission a;
        synchronized (streams) {
            a = streams.open(user);
        }
        if (a instanceof StreamQuota.Refused r) {
            metrics.streamRefused(r.cap() == StreamQuota.Cap.PER_USER ? "per_user" : "total");
            return refuse(call, Status.RESOURCE_EXHAUSTED.withDescription(r.message()));
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                synchronized (streams) {
                    streams.close(user);
                }
            }
        };
        ServerCall<Q, A> closing = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                try {
                    super.close(status, trailers);
                } finally {
                    release.run();
                }
            }
        };
        ServerCall.Listener<Q> listener;
        try {
            listener = next.startCall(closing, headers);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
            @Override
            public void onCancel() {
                try {
                    super.onCancel();
                } finally {
                    release.run();
                }
            }

            @Override
            public void onComplete() {
                try {
                    super.onComplete();
                } finally {
                    release.run();
                }
            }
        };
    }

    private static <Q, A> ServerCall.Listener<Q> refuse(ServerCall<Q, A> call, Status status) {
        call.close(status, new Metadata());
        return new ServerCall.Listener<>() { };
    }
}
