package dev.gantry.scheduler.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.runtime.ManualSuspension;
import io.grpc.Status;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** How controller refusals reach clients as gRPC statuses. */
class ControllerStatusTest {

    @Test
    void aCallerWhoIsNotAnOperator_getsPermissionDenied_namingWhatWasRefused() {
        Status s = Status.fromThrowable(ControllerGrpcService.status(
                new CompletionException(new ManualSuspension.AccessDenied("alice", "scontrol suspend"))));

        assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
        assertEquals("scontrol suspend: only operators and administrators may (alice is neither): Access/permission denied",
                s.getDescription());
    }
}
