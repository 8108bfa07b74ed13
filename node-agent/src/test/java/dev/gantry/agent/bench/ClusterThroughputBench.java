package dev.gantry.agent.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Load driver against a running local cluster: submits trivial jobs ({@code true}, 1 CPU, 1 MiB, output to
 * /dev/null) over gRPC with up to 64 submissions in flight, and waits until every one has ended (it must be COMPLETED). Reports the
 * submit rate and the end-to-end rate (first submission to last completion). Not a test: skipped unless
 * {@code -Dgantry.bench.controller=host:port}; {@code node-agent/bench/throughput.sh} runs it through {@link #main}
 * (plain java, no build in the measured part) against a cluster it starts.
 *
 * <pre>node-agent/bench/throughput.sh 2000</pre>
 */
class ClusterThroughputBench {

    /** What one run saw. */
    record Result(int jobs, int accepted, int completed, double submitSeconds, double totalSeconds) {
        String line() {
            return String.format(Locale.ROOT,
                    "throughput: %d jobs; submitted in %.2f s (%.0f/s); all completed after %.2f s (%.0f jobs/s end to end)",
                    jobs, submitSeconds, jobs / submitSeconds, totalSeconds, jobs / totalSeconds);
        }
    }

    @Test
    void trivialJobs_submittedLaunchedAndCompleted() throws Exception {
        String controller = System.getProperty("gantry.bench.controller", "");
        assumeTrue(!controller.isEmpty(), "benchmark: run with -Dgantry.bench.controller=host:port");
        int jobs = Integer.getInteger("gantry.bench.jobs", 2000);
        Result r = run(controller, jobs, java.nio.file.Path.of(System.getProperty("gantry.bench.auth-socket", "auth.sock")));
        assertEquals(jobs, r.accepted(), "every submission accepted");
        assertEquals(jobs, r.completed(), "every job COMPLETED");
        System.out.println(r.line());
    }

    /**
     * {@code java -cp … ClusterThroughputBench host:port jobs auth.sock}; exit status 1 unless every job completed. The
     * calls authenticate with local tokens from the cluster's authenticator socket (the run directory's auth.sock).
     */
    public static void main(String[] args) throws Exception {
        Result r = run(args[0], Integer.parseInt(args[1]), java.nio.file.Path.of(args[2]));
        System.out.println(r.line());
        if (r.accepted() != r.jobs() || r.completed() != r.jobs()) {
            System.out.printf("only %d accepted, %d completed%n", r.accepted(), r.completed());
            System.exit(1);
        }
    }

    /**
     * Submits {@code jobs} trivial jobs and waits until each has ended, seen through one WatchJobs stream of finished
     * jobs (what {@code sbatch --wait} uses; no polling of the whole job list, which would cost the controller more
     * than the jobs do).
     */
    static Result run(String controller, int jobs, java.nio.file.Path authSocket) throws InterruptedException {
        ManagedChannel channel = ManagedChannelBuilder.forTarget(controller).usePlaintext()
                .intercept(new LocalTokens(authSocket)).build();
        try {
            ControllerGrpc.ControllerStub async = ControllerGrpc.newStub(channel);
            // the jobs run as the caller (the controller takes the user from the token); the name marks this run's jobs
            String name = "bench" + System.nanoTime() % 1_000_000;
            String user = System.getProperty("user.name");
            JobSpec spec = JobSpec.newBuilder().setName(name).setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp")
                    .setStdoutPath("/dev/null").setCpusPerTask(1).setMemPerNodeMb(1)
                    .putEnvironment("PATH", "/usr/bin:/bin").build();
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            Set<Long> completed = ConcurrentHashMap.newKeySet();
            Set<Long> ended = ConcurrentHashMap.newKeySet();
            CountDownLatch allEnded = new CountDownLatch(1);
            ListJobsRequest finished = ListJobsRequest.newBuilder().addUsers(user)
                    .addAllStates(List.of(JobState.JOB_STATE_COMPLETED, JobState.JOB_STATE_FAILED, JobState.JOB_STATE_CANCELLED,
                            JobState.JOB_STATE_TIMEOUT, JobState.JOB_STATE_NODE_FAIL, JobState.JOB_STATE_OUT_OF_MEMORY))
                    .build();
            async.watchJobs(WatchJobsRequest.newBuilder().setFilter(finished).build(), new StreamObserver<>() {
                @Override
                public void onNext(WatchJobsResponse r) {
                    if (!r.getJob().getName().equals(name)) {
                        return; // an earlier run's
                    }
                    if (r.getJob().getState() == JobState.JOB_STATE_COMPLETED) {
                        completed.add(r.getJob().getJobId());
                    }
                    if (ended.add(r.getJob().getJobId()) && ended.size() == jobs) {
                        allEnded.countDown();
                    }
                }

                @Override
                public void onError(Throwable t) {
                    if (allEnded.getCount() > 0) { // not the channel's shutdown after the run
                        System.err.println("watch failed: " + t);
                    }
                    allEnded.countDown();
                }

                @Override
                public void onCompleted() {
                    allEnded.countDown();
                }
            });
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
            allEnded.await(30, TimeUnit.MINUTES);
            long tDone = System.nanoTime();
            int done = (int) completed.stream().filter(ids::contains).count();
            return new Result(jobs, ids.size(), done, (tSubmitted - t0) / 1e9, (tDone - t0) / 1e9);
        } finally {
            channel.shutdownNow();
        }
    }

    /** The authorization header with a local token from the cluster's authenticator, fetched anew every minute. */
    private static final class LocalTokens implements io.grpc.ClientInterceptor {
        private static final io.grpc.Metadata.Key<String> AUTHORIZATION =
                io.grpc.Metadata.Key.of("authorization", io.grpc.Metadata.ASCII_STRING_MARSHALLER);
        private final java.nio.file.Path socket;
        private String token;
        private long fetchedAt;

        LocalTokens(java.nio.file.Path socket) {
            this.socket = socket;
        }

        private synchronized String token() {
            if (token == null || System.nanoTime() - fetchedAt > TimeUnit.MINUTES.toNanos(1)) {
                try (var ch = java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
                    ch.connect(java.net.UnixDomainSocketAddress.of(socket));
                    token = new String(readAll(ch), java.nio.charset.StandardCharsets.US_ASCII).trim();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("local authenticator at " + socket, e);
                }
                fetchedAt = System.nanoTime();
            }
            return token;
        }

        private static byte[] readAll(java.nio.channels.SocketChannel ch) throws java.io.IOException {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8192);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                if (b.position() > 0 && b.get(b.position() - 1) == '\n') {
                    break;
                }
            }
            return java.util.Arrays.copyOf(b.array(), b.position());
        }

        @Override
        public <Q, A> io.grpc.ClientCall<Q, A> interceptCall(io.grpc.MethodDescriptor<Q, A> method, io.grpc.CallOptions options,
                io.grpc.Channel next) {
            String value = "Bearer " + token();
            return new io.grpc.ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<A> listener, io.grpc.Metadata headers) {
                    headers.put(AUTHORIZATION, value);
                    super.start(listener, headers);
                }
            };
        }
    }
}
