package dev.gantry.scheduler.bench;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Concurrent gRPC clients, each with its own channel (its own TCP connection), submitting jobs from a shared
 * sequence until a round's jobs are gone. A client keeps at most {@code inFlight} submissions outstanding: 1 is
 * sbatch in a loop; more is a workflow engine using the async stub. Specs are built before the clock starts.
 */
final class LoadClients implements AutoCloseable {

    /**
     * @param ids the acknowledged job id of each submission index (0 where it failed)
     * @param latencyNanos submit-to-acknowledge time of the acknowledged submissions
     */
    record Round(int submitted, int acknowledged, List<String> errors, long elapsedNanos, long[] ids, Histogram latencyNanos) {
        double perSecond() {
            return acknowledged / (elapsedNanos / 1e9);
        }
    }

    private final List<ManagedChannel> channels = new ArrayList<>();
    private final int inFlight;

    /** @param tokens each client's credential (a token for the user BenchJobs submits as for that client) */
    LoadClients(String target, int clients, int inFlight, java.util.function.IntFunction<String> tokens) {
        for (int c = 0; c < clients; c++) {
            io.grpc.Metadata headers = new io.grpc.Metadata();
            headers.put(dev.gantry.common.authn.Callers.AUTHORIZATION, "Bearer " + tokens.apply(c));
            // callbacks on the transport thread: they only record and release (no hop to grpc's default executor)
            channels.add(ManagedChannelBuilder.forTarget(target).usePlaintext().directExecutor()
                    .intercept(io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(headers)).build());
        }
        this.inFlight = inFlight;
    }

    /** Submits jobs {@code first .. first+count-1} over all clients; returns when every one is answered. */
    Round run(int first, int count) throws InterruptedException {
        int clients = channels.size();
        SubmitJobRequest[] requests = new SubmitJobRequest[count];
        for (int i = 0; i < count; i++) {
            JobSpec spec = BenchJobs.job(first + i, i % clients);
            requests[i] = SubmitJobRequest.newBuilder().setSpec(spec).build();
        }
        long[] ids = new long[count];
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        AtomicInteger acked = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(count);
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            var stub = ControllerGrpc.newFutureStub(channels.get(c));
            int client = c;
            Semaphore window = new Semaphore(inFlight);
            threads.add(Thread.ofPlatform().name("load-client").start(() -> {
                try {
                    // request i is client (i % clients)'s job, for that client's user: its token vouches for no other
                    for (int i = client; i < count; i += clients) {
                        window.acquire();
                        int index = i;
                        long start = System.nanoTime();
                        Futures.addCallback(stub.submitJob(requests[index]), new FutureCallback<SubmitJobResponse>() {
                            @Override
                            public void onSuccess(SubmitJobResponse r) {
                                long took = System.nanoTime() - start;
                                synchronized (latency) {
                                    latency.recordValue(Math.min(took, latency.getHighestTrackableValue()));
                                }
                                ids[index] = r.getJobId();
                                acked.incrementAndGet();
                                window.release();
                                done.countDown();
                            }

                            @Override
                            public void onFailure(Throwable e) {
                                errors.add("bench-" + (first + index) + ": " + e.getMessage());
                                window.release();
                                done.countDown();
                            }
                        }, MoreExecutors.directExecutor());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            errors.add((done.getCount()) + " submission(s) unanswered after 10 minutes");
        }
        long elapsed = System.nanoTime() - t0;
        for (Thread t : threads) {
            t.join();
        }
        return new Round(count, acked.get(), List.copyOf(errors), elapsed, ids, latency);
    }

    @Override
    public void close() {
        channels.forEach(ManagedChannel::shutdownNow);
    }
}
