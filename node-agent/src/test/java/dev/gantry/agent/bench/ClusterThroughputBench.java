package dev.gantry.agent.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Load driver against a running local cluster: submits trivial jobs ({@code true}, 1 CPU, 1 MiB, output to
 * /dev/null) over gRPC with up to 64 submissions in flight, and waits until every one is COMPLETED. Reports the
 * submit rate and the end-to-end rate (first submission to last completion). Not a test: skipped unless
 * {@code -Dgantry.bench.controller=host:port}.
 *
 * <pre>bin/gantry up --run-dir /tmp/bench
 * ./mvnw -o -q -pl node-agent test -Dtest=ClusterThroughputBench -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgantry.bench.controller=$(cat /tmp/bench/controller.addr) -Dgantry.bench.jobs=2000</pre>
 */
class ClusterThroughputBench {

    @Test
    void trivialJobs_submittedLaunchedAndCompleted() throws Exception {
        String controller = System.getProperty("gantry.bench.controller", "");
        assumeTrue(!controller.isEmpty(), "benchmark: run with -Dgantry.bench.controller=host:port");
        int jobs = Integer.getInteger("gantry.bench.jobs", 2000);
        ManagedChannel channel = ManagedChannelBuilder.forTarget(controller).usePlaintext().build();
        try {
            ControllerGrpc.ControllerStub async = ControllerGrpc.newStub(channel);
            ControllerGrpc.ControllerBlockingStub blocking = ControllerGrpc.newBlockingStub(channel);
            JobSpec spec = JobSpec.newBuilder().setName("true").setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp")
                    .setStdoutPath("/dev/null").setCpusPerTask(1).setMemPerNodeMb(1).setUser("bench").setUid(0).setGid(0)
                    .putEnvironment("PATH", "/usr/bin:/bin").build();
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            Semaphore inFlight = new Semaphore(64);
            CountDownLatch submitted = new CountDownLatch(jobs);
            long t0 = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                inFlight.acquire();
                async.submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build(), new StreamObserver<>() {
                    @Override
                    public void onNext(SubmitJobResponse r) {
                        ids.add(r.getJobId());
                    }

                    @Override
                    public void onError(Throwable t) {
                        System.err.println("submit failed: " + t);
                        inFlight.release();
                        submitted.countDown();
                    }

                    @Override
                    public void onCompleted() {
                        inFlight.release();
                        submitted.countDown();
                    }
                });
            }
            submitted.await(10, TimeUnit.MINUTES);
            long tSubmitted = System.nanoTime();
            assertEquals(jobs, ids.size(), "every submission accepted");
            Set<Long> done = new HashSet<>();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
            while (done.size() < jobs && System.nanoTime() < deadline) {
                blocking.listJobs(ListJobsRequest.newBuilder().addStates(JobState.JOB_STATE_COMPLETED).build()).getJobsList()
                        .forEach(j -> {
                            if (ids.contains(j.getJobId())) {
                                done.add(j.getJobId());
                            }
                        });
                Thread.sleep(100);
            }
            long tDone = System.nanoTime();
            assertEquals(jobs, done.size(), "every job COMPLETED");
            System.out.printf(Locale.ROOT, "throughput: %d jobs; submitted in %.2f s (%.0f/s); all completed after %.2f s (%.0f jobs/s end to end)%n",
                    jobs, (tSubmitted - t0) / 1e9, jobs / ((tSubmitted - t0) / 1e9), (tDone - t0) / 1e9, jobs / ((tDone - t0) / 1e9));
        } finally {
            channel.shutdownNow();
        }
    }
}
