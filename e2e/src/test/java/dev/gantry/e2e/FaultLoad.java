package dev.gantry.e2e;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.SubmitJobRequest;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load a fault-injection run keeps up: a stream of short jobs submitted over gRPC, every acknowledged id
 * remembered, and a ledger every job run appends to (one line when a run starts, one when it ends: job id, run, pid).
 * A job's environment carries a marker, so its processes can be told from any other's in /proc.
 */
final class FaultLoad implements AutoCloseable {

    /** A line of the ledger: job {@code job}'s run {@code run} (its restart count) in process {@code pid}. */
    record Entry(long job, int run, long pid, boolean start) {}

    private final ControllerGrpc.ControllerBlockingStub controller;
    private final Path work;
    private final Path ledger;
    final String marker;
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean running;
    private Thread submitter;

    FaultLoad(ControllerGrpc.ControllerBlockingStub controller, Path work, String marker) throws IOException {
        this.controller = controller;
        this.work = work;
        this.ledger = work.resolve("ledger");
        this.marker = marker;
        Files.writeString(ledger, "");
        ledger.toFile().setWritable(true, false);
    }

    /** A batch script that records its run in the ledger, runs {@code body}, and records its end. */
    String script(String body) {
        return "#!/bin/bash\n"
                + "echo \"$SLURM_JOB_ID ${SLURM_RESTART_COUNT:-0} $$ start\" >> " + ledger + "\n"
                + body + "\n"
                + "echo \"$SLURM_JOB_ID ${SLURM_RESTART_COUNT:-0} $$ end\" >> " + ledger + "\n";
    }

    /** The spec of a job of this load: {@code body} in the ledger's frame, the marker in its environment. */
    JobSpec.Builder spec(String name, String partition, String body) {
        return JobSpec.newBuilder().setName(name).setScript(script(body)).setWorkDir(work.toString())
                .setStdoutPath(work.resolve("out-%j").toString()).addPartitions(partition)
                .putEnvironment("GANTRY_FAULT_SUITE", marker).putEnvironment("PATH", "/usr/bin:/bin")
                .setTimeLimitSeconds(600);
    }

    /** Submits {@code spec}; its id is acknowledged once the call answers it. */
    long submit(JobSpec.Builder spec) {
        long id = controller.withDeadlineAfter(20, TimeUnit.SECONDS)
                .submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
        acknowledged.add(id);
        return id;
    }

    /** Starts submitting a short job ({@code sleep} of 0.2–0.8 s) to {@code partition} every {@code periodMs}. */
    void start(String partition, long periodMs) {
        running = true;
        submitter = Thread.ofPlatform().daemon().name("fault-load").start(() -> {
            int n = 0;
            while (running) {
                try {
                    submit(spec("short" + n, partition, "sleep 0." + (2 + (n % 4) * 2)));
                } catch (StatusRuntimeException e) {
                    refused.incrementAndGet(); // not acknowledged: it may or may not exist, and need not
                }
                n++;
                try {
                    Thread.sleep(periodMs);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Stops submitting. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        if (submitter != null) {
            submitter.interrupt();
            submitter.join(30_000);
        }
    }

    Set<Long> acknowledged() {
        return Set.copyOf(acknowledged);
    }

    int refused() {
        return refused.get();
    }

    /** The ledger's complete lines (a line being written is left out). */
    List<Entry> entries() throws IOException {
        List<Entry> out = new ArrayList<>();
        for (String line : Files.readString(ledger).split("\n", -1)) {
            String[] f = line.trim().split(" ");
            if (f.length == 4 && (f[3].equals("start") || f[3].equals("end"))) {
                out.add(new Entry(Long.parseLong(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3].equals("start")));
            }
        }
        return out;
    }

    /** Each job's runs that started more than once ("job 12 run 0 started 2 times"): a run is started once. */
    List<String> runsStartedTwice() throws IOException {
        Map<String, Integer> starts = new HashMap<>();
        for (Entry e : entries()) {
            if (e.start()) {
                starts.merge(e.job() + " run " + e.run(), 1, Integer::sum);
            }
        }
        return starts.entrySet().stream().filter(s -> s.getValue() > 1)
                .map(s -> "job " + s.getKey() + " started " + s.getValue() + " times").sorted().toList();
    }

    /** The processes (pid → environment) that carry this load's marker: its jobs' processes. */
    Map<Long, Map<String, String>> processes() throws IOException {
        Map<Long, Map<String, String>> out = new HashMap<>();
        for (long pid : Procs.withVariable("GANTRY_FAULT_SUITE=" + marker)) {
            Map<String, String> env = Procs.environment(pid);
            if (!env.isEmpty()) {
                out.put(pid, env);
            }
        }
        return out;
    }
}
