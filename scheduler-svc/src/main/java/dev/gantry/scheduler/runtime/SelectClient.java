package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.SelectGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls select-svc for a scheduling pass: waits briefly while its replica catches up with the revision asked for
 * (FAILED_PRECONDITION), and reports it unreachable once per outage. Used from the scheduling thread only.
 */
final class SelectClient {

    private static final Logger LOG = LoggerFactory.getLogger(SelectClient.class);

    private final ManagedChannel channel;
    private boolean down;

    SelectClient(ManagedChannel channel) {
        this.channel = channel;
    }

    /** The answer, or null when select-svc is unreachable or stayed behind (the pass is retried later). */
    <T> T call(String what, long revision, Function<SelectGrpc.SelectBlockingStub, T> call) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                T r = call.apply(SelectGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS)
                        .withMaxInboundMessageSize(256 << 20).withMaxOutboundMessageSize(256 << 20));
                if (down) {
                    LOG.info("select-svc answers again");
                    down = false;
                }
                return r;
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                    Thread.sleep(10);
                    continue;
                }
                if (!down) {
                    LOG.warn("select-svc {} failed: {}; jobs wait", what, e.getStatus());
                    down = true;
                }
                Thread.sleep(200);
                return null;
            }
        }
        LOG.warn("select-svc replica stayed behind revision {}; retrying next pass", revision);
        return null;
    }
}
