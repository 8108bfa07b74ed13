package dev.gantry.scheduler.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.runtime.ManualSuspension;
import io.grpc.Status;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** How controller refusals reach clients as gRPC statuses. */
class ControllerStatusTest {

    @Test
    void aCallerWhoIsNotAnOperator_getsPermissionDenied_withSlurmsMessage() {
        Status s = Status.fromThrowable(ControllerGrpcService.status(
                new CompletionException(new ManualSuspension.AccessDenied("alice"))));

        assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
        assertEquals("Access/permission denied (user alice is not an operator or administrator)", s.getDescription());
    }
}
