package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stopping controller ends its job watchers (UNAVAILABLE, so they re-subscribe to the next one) instead of leaving
 * them open: an open stream held the gRPC server's shutdown for its whole await-termination (30 s), most of a
 * graceful restart's 41 s.
 */
class JobWatchShutdownTest {

    private ControllerApiRig rig;

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void close_endsEveryWatcherWithUnavailable() throws Exception {
        rig = new ControllerApiRig(RequestLimitsApiTest.NODES);
        PrivateDataApiTest.submit(rig.as(ControllerApiRig.ALICE));
        Iterator<WatchJobsResponse> watch = rig.as(ControllerApiRig.ALICE).watchJobs(WatchJobsRequest.getDefaultInstance());
        watch.next(); // the snapshot: the watcher is registered
        TestWait.await("the watcher is registered", () -> rig.jobWatch().count() == 1);

        rig.jobWatch().close();

        StatusRuntimeException end = assertThrows(StatusRuntimeException.class, () -> {
            while (watch.hasNext()) {
                watch.next();
            }
        });
        assertEquals(Status.Code.UNAVAILABLE, end.getStatus().getCode());
        assertTrue(end.getStatus().getDescription().contains("shutting down"), end.getStatus().getDescription());
        TestWait.await("the ended watcher is gone", () -> rig.jobWatch().count() == 0);
    }
}
