package dev.gantry.scheduler.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.StepsGrpc;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import dev.gantry.scheduler.store.DatabaseAvailability;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The gate on scheduler-svc's servers while the database is down, over grpc-java's in-process transport. */
class DatabaseGateTest {

    /** Answers SubmitJob and ListJobs at once: what the gate keeps from it shows. */
    static final class AnsweringController implements ControllerGrpc.AsyncService {
        @Override
        public void submitJob(SubmitJobRequest request, StreamObserver<SubmitJobResponse> out) {
            out.onNext(SubmitJobResponse.newBuilder().setJobId(7).build());
            out.onCompleted();
        }

        @Override
        public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> out) {
            out.onNext(ListJobsResponse.getDefaultInstance());
            out.onCompleted();
        }
    }

    @Test
    void whileDown_aChangeIsAnsweredUnavailableNamingTheCause_aQueryIsAnswered_andOnceUpBothAre() throws Exception {
        DatabaseAvailability availability = new DatabaseAvailability();
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(ServerInterceptors.intercept(ControllerGrpc.bindService(new AnsweringController()),
                        new DatabaseGate(availability)))
                .build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        try {
            var stub = ControllerGrpc.newBlockingStub(channel);
            availability.down("the embedded PostgreSQL (pid 42) exited");
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> stub.submitJob(SubmitJobRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
            assertEquals("database unavailable: the embedded PostgreSQL (pid 42) exited; nothing was changed, try again",
                    e.getStatus().getDescription());
            stub.listJobs(ListJobsRequest.getDefaultInstance()); // squeue answers from memory

            availability.up();
            assertEquals(7, stub.submitJob(SubmitJobRequest.getDefaultInstance()).getJobId());
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }

    /** A misspelt name would gate a query (safe, but squeue would fail during an outage): each must be a real method. */
    @Test
    void everyMethodLetThrough_existsInAService_andNoneChangesState() {
        Set<String> served = List.of(ControllerGrpc.getServiceDescriptor(), StepsGrpc.getServiceDescriptor(),
                        AgentHubGrpc.getServiceDescriptor(), ClusterEventsGrpc.getServiceDescriptor(),
                        GangControlGrpc.getServiceDescriptor()).stream()
                .map(ServiceDescriptor::getMethods).flatMap(java.util.Collection::stream)
                .map(MethodDescriptor::getFullMethodName).collect(Collectors.toSet());
        for (String method : DatabaseGate.ANSWERED_FROM_MEMORY) {
            assertTrue(served.contains(method), method + " is no method of scheduler-svc");
        }
        for (String changes : List.of("SubmitJob", "CancelJob", "HoldJob", "ReleaseJob", "RequeueJob", "UpdateJob", "TopJob",
                "SuspendJobs", "ResumeJobs", "UpdateQos")) {
            assertTrue(served.contains("gantry.v1.Controller/" + changes), changes);
            assertTrue(!DatabaseGate.ANSWERED_FROM_MEMORY.contains("gantry.v1.Controller/" + changes), changes + " is gated");
        }
        assertTrue(!DatabaseGate.ANSWERED_FROM_MEMORY.contains("gantry.v1.AgentHub/ReportJobExit"));
        assertTrue(!DatabaseGate.ANSWERED_FROM_MEMORY.contains("gantry.v1.Steps/CreateStep"));
    }
}
