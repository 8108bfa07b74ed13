package dev.gantry.scheduler.bench;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The main pass over N pending jobs, end to end, on a running local cluster (docs/benchmarks.md, "The main pass"):
 * what {@code gantry_scheduler_cycle_seconds{pass="main"}} records — the controller's preparation (eligibility,
 * limits, queue order), building the 10,000 job requests, the Plan call to select-svc over loopback gRPC (both
 * ways' serialisation included), select-svc's pass, and applying the answer on the controller thread.
 *
 * <p>An exclusive blocker job takes each node, then N one-CPU jobs are submitted and stay pending. While they
 * wait, a held job is submitted every {@code --trigger-ms} (a submission triggers a main pass; a held job is not a
 * candidate, so every pass still sees exactly the N pending jobs). The scheduler's histogram is read before and
 * after {@code --seconds}; the report gives the passes' mean (sum ÷ count) and the quantiles' bucket bounds.
 *
 * <pre>
 * --controller H:P   scheduler-svc's gRPC address (required)
 * --metrics URL      scheduler-svc's /prometheus (required)
 * --jobs N           pending jobs (10000)
 * --nodes N          blockers, one per node of the default partition (4)
 * --seconds S        measuring window (60)
 * --trigger-ms M     a held submission every M ms during the window (100)
 * </pre>
 */
public final class MainPassLoad {

    private static final String METRIC = "gantry_scheduler_cycle_seconds";

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>(Map.of("--jobs", "10000", "--nodes", "4", "--seconds", "60",
                "--trigger-ms", "100"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        if (!o.containsKey("--controller") || !o.containsKey("--metrics") || !o.containsKey("--run-dir")) {
            throw new IllegalArgumentException("usage: --controller H:P --metrics URL --run-dir DIR [--jobs N] [--seconds S]");
        }
        int jobs = Integer.parseInt(o.get("--jobs"));
        // as the user running it, with a local token signed by the cluster's authentication key (--run-dir: bin/gantry up's)
        String me = System.getProperty("user.name");
        io.grpc.Metadata auth = new io.grpc.Metadata();
        auth.put(dev.gantry.common.authn.Callers.AUTHORIZATION, "Bearer " + SchedulerProcess.token(Path.of(o.get("--run-dir")), me, uid(), uid()));
        ManagedChannel channel = ManagedChannelBuilder.forTarget(o.get("--controller")).usePlaintext()
                .intercept(io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(auth)).build();
        try {
            var stub = ControllerGrpc.newBlockingStub(channel);
            var async = ControllerGrpc.newFutureStub(channel);
            // one exclusive single-node blocker per node, so no node has a free CPU
            JobSpec blocker = JobSpec.newBuilder().setName("blocker").setScript("#!/bin/sh\nsleep 3600\n")
                    .setWorkDir("/tmp").setUser(me).setUid(uid()).setGid(uid()).setMinNodes(1)
                    .setExclusive(true).setStdoutPath("/dev/null").setStderrPath("/dev/null").build();
            int nodes = Integer.parseInt(o.get("--nodes"));
            for (int i = 0; i < nodes; i++) {
                stub.submitJob(SubmitJobRequest.newBuilder().setSpec(blocker).build());
            }
            waitRunning(stub, "blocker", nodes);

            Semaphore window = new Semaphore(256);
            AtomicInteger failed = new AtomicInteger();
            long t0 = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                window.acquire();
                // the caller's own jobs: BenchJobs' users are not users of this host
                var f = async.submitJob(SubmitJobRequest.newBuilder().setSpec(BenchJobs.job(i, i % 8).toBuilder().clearUser()
                        .clearUid().clearGid()).build());
                f.addListener(() -> {
                    try {
                        f.get();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                    window.release();
                }, Runnable::run);
            }
            window.acquire(256);
            System.out.printf("submitted %d pending jobs in %.1f s (%d failed)%n", jobs, (System.nanoTime() - t0) / 1e9,
                    failed.get());
            int pending = pending(stub);
            System.out.println("pending now: " + pending);
            Thread.sleep(3000); // let the passes triggered by the submissions settle

            Histogram before = scrape(o.get("--metrics"));
            long seconds = Long.parseLong(o.get("--seconds"));
            long triggerMs = Long.parseLong(o.get("--trigger-ms"));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            JobSpec held = blocker.toBuilder().setName("trigger").setExclusive(false).setMinNodes(1).setHold(true).build();
            while (System.nanoTime() < end) {
                stub.submitJob(SubmitJobRequest.newBuilder().setSpec(held).build());
                Thread.sleep(triggerMs);
            }
            Histogram after = scrape(o.get("--metrics"));
            report(pending, before, after);
        } finally {
            channel.shutdownNow();
        }
    }

    private static int uid() {
        try {
            return (Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
        } catch (Exception e) {
            return 0;
        }
    }

    private static void waitRunning(ControllerGrpc.ControllerBlockingStub stub, String name, int count)
            throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            long running = stub.listJobs(ListJobsRequest.newBuilder().addStates(JobState.JOB_STATE_RUNNING).build())
                    .getJobsList().stream().filter(j -> j.getName().equals(name)).count();
            if (running == count) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the blockers did not all start");
    }

    private static int pending(ControllerGrpc.ControllerBlockingStub stub) {
        return (int) stub.withMaxInboundMessageSize(256 << 20)
                .listJobs(ListJobsRequest.newBuilder().addStates(JobState.JOB_STATE_PENDING).build()).getJobsList()
                .stream().filter(j -> j.getName().startsWith("bench-")).count();
    }

    /** The main pass's histogram: cumulative bucket counts by upper bound, count and sum (seconds). */
    record Histogram(TreeMap<Double, Double> buckets, double count, double sum) {}

    static Histogram scrape(String url) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        TreeMap<Double, Double> buckets = new TreeMap<>();
        double count = 0;
        double sum = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith(METRIC) || !line.contains("pass=\"main\"")) {
                continue;
            }
            double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            if (line.startsWith(METRIC + "_bucket")) {
                int le = line.indexOf("le=\"") + 4;
                String bound = line.substring(le, line.indexOf('"', le));
                buckets.put(bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound), value);
            } else if (line.startsWith(METRIC + "_count")) {
                count = value;
            } else if (line.startsWith(METRIC + "_sum")) {
                sum = value;
            }
        }
        return new Histogram(buckets, count, sum);
    }

    static void report(int pending, Histogram before, Histogram after) {
        double n = after.count() - before.count();
        if (n <= 0) {
            System.out.println("no main pass ran during the window");
            return;
        }
        double mean = (after.sum() - before.sum()) / n;
        System.out.printf("main pass over %d pending jobs, end to end: %d passes, mean %.2f ms, p50 <= %s, p90 <= %s,"
                + " p99 <= %s%n", pending, (long) n, mean * 1e3, quantile(before, after, n, 0.5),
                quantile(before, after, n, 0.9), quantile(before, after, n, 0.99));
    }

    /** The upper bound of the bucket holding quantile q of the window's passes. */
    private static String quantile(Histogram before, Histogram after, double n, double q) {
        for (var e : after.buckets().entrySet()) {
            double inWindow = e.getValue() - before.buckets().getOrDefault(e.getKey(), 0.0);
            if (inWindow >= q * n) {
                return e.getKey().isInfinite() ? "+Inf" : String.format("%.2f ms", e.getKey() * 1e3);
            }
        }
        return "+Inf";
    }
}
