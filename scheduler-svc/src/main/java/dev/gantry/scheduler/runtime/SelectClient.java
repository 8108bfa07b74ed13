package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls select-svc for a scheduling pass, once: a call that finds it unreachable (UNAVAILABLE: restarting, or its
 * replica not ready yet) is tried again by gRPC itself ({@link #SERVICE_CONFIG}, the channel's retry policy), and each
 * request carries the changes select-svc's replica may lack ({@link #changesSince}), so it answers without waiting for
 * its event stream. A call that still fails is reported once per outage and the pass is tried again later.
 */
final class SelectClient {

    private static final Logger LOG = LoggerFactory.getLogger(SelectClient.class);

    /**
     * The select channel's service config (gRPC's A6 retry design): every Select call is retried on UNAVAILABLE, up to
     * four attempts in all, backing off from 50 ms; each attempt has a minute. Select calls only compute an answer, so
     * trying one again is always safe.
     */
    static final Map<String, ?> SERVICE_CONFIG = Map.of("methodConfig", List.of(Map.of(
            "name", List.of(Map.of("service", "gantry.v1.Select")),
            "timeout", "60s",
            "retryPolicy", Map.of(
                    "maxAttempts", 4.0,
                    "initialBackoff", "0.05s",
                    "maxBackoff", "0.5s",
                    "backoffMultiplier", 2.0,
                    "retryableStatusCodes", List.of("UNAVAILABLE")))));

    private final ManagedChannel channel;
    private boolean down;
    /** The epoch and revision of select-svc's last answer: its replica has every change up to there. */
    private volatile Answered answered = new Answered("", 0);

    private record Answered(String epoch, long revision) {}

    SelectClient(ManagedChannel channel) {
        this.channel = channel;
    }

    /**
     * The changes published after select-svc's last answer (controller thread): sent with a request, they bring its
     * replica up to the request's revision at once. Empty when it has answered in no pass of this epoch yet, or when
     * they are no longer all kept ({@link EventLog#since}): it then waits for its event stream.
     */
    List<ClusterEvent> changesSince(EventLog events) {
        Answered a = answered;
        return a.epoch.equals(events.epoch()) ? events.since(a.revision) : List.of();
    }

    /** Plan's answer (see {@link #call}); {@code plan} makes the call on the stub it is given. */
    PlanResponse plan(String what, Function<SelectGrpc.SelectBlockingStub, PlanResponse> plan)
            throws InterruptedException {
        return call(what, plan, PlanResponse::getEpoch, PlanResponse::getRevision);
    }

    EarliestStartsResponse earliestStarts(EarliestStartsRequest request) throws InterruptedException {
        return call("backfill", s -> s.earliestStarts(request), EarliestStartsResponse::getEpoch,
                EarliestStartsResponse::getRevision);
    }

    /**
     * The answer, or null when select-svc is unreachable or its replica stayed behind (the caller tries the pass again
     * later); {@code epochOf} and {@code revisionOf} read where the answer was computed.
     */
    private <T> T call(String what, Function<SelectGrpc.SelectBlockingStub, T> call, Function<T, String> epochOf,
            Function<T, Long> revisionOf) throws InterruptedException {
        try {
            T r = call.apply(SelectGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .withMaxInboundMessageSize(256 << 20).withMaxOutboundMessageSize(256 << 20));
            answered = new Answered(epochOf.apply(r), revisionOf.apply(r));
            if (down) {
                LOG.info("select-svc answers again");
                down = false;
            }
            return r;
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                LOG.debug("select-svc {}: {}; the pass is tried again", what, e.getStatus().getDescription());
                return null;
            }
            if (!down) {
                LOG.warn("select-svc {} failed: {}; jobs wait", what, e.getStatus());
                down = true;
            }
            Thread.sleep(200);
            return null;
        }
    }
}
