package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListStepsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.common.auth.Identity;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client API's limits (SlurmctldParameters): Slurm's per-user request rate limit, caps on open watch streams, and
 * a bounded buffer for watchers that do not read. Each refusal is RESOURCE_EXHAUSTED naming the limit, and counted.
 */
class RequestLimitsApiTest {

    static final Identity ALICE = ControllerApiRig.ALICE;
    static final Identity BOB = PrivateDataApiTest.BOB;
    static final Identity ROOT = PrivateDataApiTest.ROOT;
    static final String NODES = """
            NodeName=n1 CPUs=2 RealMemory=1024
            PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
            """;

    ControllerApiRig rig;
    final List<Context.CancellableContext> watches = new ArrayList<>();

    @AfterEach
    void stop() {
        watches.forEach(w -> w.cancel(null));
        rig.close();
    }

    double counter(String name, String... tags) {
        var c = rig.harness().registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    StatusRuntimeException listRefused(Identity who) {
        return assertThrows(StatusRuntimeException.class, () -> rig.as(who).listJobs(ListJobsRequest.getDefaultInstance()));
    }

    @Test
    void aUserOverTheRateLimit_isRefusedNamingIt_untilTheBucketRefills() throws Exception {
        rig = new ControllerApiRig("SlurmctldParameters=rl_enable,rl_bucket_size=3,rl_refill_rate=2,rl_refill_period=10\n" + NODES);
        for (int i = 0; i < 3; i++) {
            rig.as(ALICE).listJobs(ListJobsRequest.getDefaultInstance());
        }

        StatusRuntimeException e = listRefused(ALICE);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("rate limit: alice made more than 3 requests"), e.getStatus().getDescription());
        assertTrue(e.getStatus().getDescription().contains("rl_bucket_size=3,rl_refill_rate=2,rl_refill_period=10"),
                e.getStatus().getDescription());
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, assertThrows(StatusRuntimeException.class,
                () -> rig.stepsAs(ALICE).listSteps(ListStepsRequest.getDefaultInstance())).getStatus().getCode(), "every service");
        rig.as(BOB).listJobs(ListJobsRequest.getDefaultInstance()); // a bucket of his own
        assertEquals(2, counter("gantry_rpc_rate_limited_total"));

        rig.harness().now.set(rig.harness().now.get().plusSeconds(10));
        rig.as(ALICE).listJobs(ListJobsRequest.getDefaultInstance());
        rig.as(ALICE).listJobs(ListJobsRequest.getDefaultInstance());
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, listRefused(ALICE).getStatus().getCode(), "two tokens per period");
    }

    @Test
    void rootIsNeverRateLimited() throws Exception {
        rig = new ControllerApiRig("SlurmctldParameters=rl_enable,rl_bucket_size=1\n" + NODES);
        for (int i = 0; i < 50; i++) {
            rig.as(ROOT).listJobs(ListJobsRequest.getDefaultInstance());
        }
        assertEquals(0, counter("gantry_rpc_rate_limited_total"));
    }

    /** Opens a watch of {@code who} that the test ends in {@link #stop}; returns once its snapshot came. */
    Iterator<WatchJobsResponse> watch(Identity who) throws Exception {
        Context.CancellableContext w = Context.current().withCancellation();
        watches.add(w);
        Iterator<WatchJobsResponse> it = w.call(() -> rig.as(who).watchJobs(WatchJobsRequest.getDefaultInstance()));
        it.hasNext(); // the call has started: a refusal would end it here
        return it;
    }

    @Test
    void watchStreams_areCappedPerUserAndInAll_andAnEndedOneGivesItsPlaceBack() throws Exception {
        rig = new ControllerApiRig("SlurmctldParameters=watch_max_per_user=2,watch_max=3\n" + NODES);
        PrivateDataApiTest.submit(rig.as(ALICE));
        watch(ALICE);
        watch(ALICE);

        StatusRuntimeException perUser = assertThrows(StatusRuntimeException.class, () -> watch(ALICE).next());
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, perUser.getStatus().getCode());
        assertTrue(perUser.getStatus().getDescription().contains("watch_max_per_user=2"), perUser.getStatus().getDescription());

        watch(BOB);
        StatusRuntimeException total = assertThrows(StatusRuntimeException.class, () -> watch(ROOT).next());
        assertTrue(total.getStatus().getDescription().contains("watch_max=3"), total.getStatus().getDescription());
        assertEquals(1, counter("gantry_watch_streams_refused_total", "limit", "per_user"));
        assertEquals(1, counter("gantry_watch_streams_refused_total", "limit", "total"));
        assertEquals(3, rig.limits().openStreams());

        watches.get(0).cancel(null);
        awaitTrue(() -> rig.limits().openStreams() == 2);
        assertNotNull(watch(ALICE).next());
    }

    @Test
    void aWatcherThatStopsReading_isEndedWhenTheSharedBufferIsFull_andOthersCarryOn() throws Exception {
        rig = new ControllerApiRig("SlurmctldParameters=watch_buffer_mb=1\n" + NODES);
        // alice's watch never asks for a message: what the controller sends her waits in its buffer
        CompletableFuture<Status> alicesEnd = new CompletableFuture<>();
        rig.asyncAs(ALICE).watchJobs(WatchJobsRequest.newBuilder().setFilter(ListJobsRequest.newBuilder().addUsers("alice")).build(),
                new ClientResponseObserver<WatchJobsRequest, WatchJobsResponse>() {
                    @Override
                    public void beforeStart(ClientCallStreamObserver<WatchJobsRequest> call) {
                        call.disableAutoRequestWithInitial(0);
                    }

                    @Override
                    public void onNext(WatchJobsResponse value) {
                        alicesEnd.completeExceptionally(new AssertionError("alice asked for nothing"));
                    }

                    @Override
                    public void onError(Throwable t) {
                        alicesEnd.complete(Status.fromThrowable(t));
                    }

                    @Override
                    public void onCompleted() {
                        alicesEnd.complete(Status.OK);
                    }
                });
        List<Long> bobsSeen = new java.util.concurrent.CopyOnWriteArrayList<>();
        rig.asyncAs(BOB).watchJobs(WatchJobsRequest.newBuilder().setFilter(ListJobsRequest.newBuilder().addUsers("bob")).build(),
                new StreamObserver<>() {
                    @Override
                    public void onNext(WatchJobsResponse value) {
                        bobsSeen.add(value.getJob().getJobId());
                    }

                    @Override
                    public void onError(Throwable t) { }

                    @Override
                    public void onCompleted() { }
                });

        String big = "x".repeat(200_000);
        for (int i = 0; i < 8 && !alicesEnd.isDone(); i++) {
            rig.as(ALICE).submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n")
                    .addArgv(big).setWorkDir("/tmp").setTimeLimitSeconds(60)).build()); // argv: in the watch's full view
        }

        Status end = alicesEnd.get(30, TimeUnit.SECONDS);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, end.getCode());
        assertTrue(end.getDescription().contains("watch_buffer_mb"), end.getDescription());
        assertEquals(1, counter("gantry_watch_streams_dropped_total", "reason", "buffer"));
        awaitTrue(() -> rig.jobWatch().budget().used() == 0);

        long bobs = PrivateDataApiTest.submit(rig.as(BOB));
        awaitTrue(() -> bobsSeen.contains(bobs));
    }

    /** Waits for what another thread does (no assertion on how long it takes). */
    static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 3000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean());
    }
}
