package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.SubmitJobRequest;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load driver for issue 5's preemption target: on a real local cluster, from a preemptor's submission until the
 * victims' processes are stopped and the preemptor's process runs. Not a test: runs only with
 * {@code -Dgantry.bench=true} ({@code -Dgantry.bench.preemptions=N}, default 100, measured after
 * {@code -Dgantry.bench.warmup=W} unmeasured rounds, default 50; {@code -Dgantry.bench.settleMs=M} waits M ms between
 * the victims resuming and the next submission, default 0). Each measured round's figures go to
 * {@code target/preemption-latency-rounds.csv}.
 *
 * <p>Two 1-CPU nodes, PreemptType=preempt/partition_prio, PreemptMode=SUSPEND,GANG. A victim in partition {@code low}
 * holds each node; each victim is a bash loop appending {@code $EPOCHREALTIME} to a heartbeat file every ~2 ms (no
 * fork: {@code read -t} on a pipe as the pause). Each round submits a 2-node preemptor to {@code high} over gRPC (the
 * time just before the call is the start), whose script first writes {@code $EPOCHREALTIME} to a file (the preemptor
 * runs), then sleeps 0.3 s and exits; the round ends when it has COMPLETED and both victims run again (their
 * heartbeats advance). A victim stopped at its last heartbeat before the longest gap in its beats after the submission
 * (the suspension, which lasts at least the preemptor's 0.3 s; resolution: the ~2 ms beat).
 * Prints p50/p90/p99 of: preemptor running, last victim stopped, and the later of the two; and of the controller's
 * decision (the preemptor's recorded start time), to tell the controller's share from the agents'.
 *
 * <pre>GANTRY_E2E_HOME=… ./mvnw -Pe2e -pl e2e -am verify -Dit.test=PreemptionLatencyBench -Dgantry.bench=true \
 *     -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * grep -h "preemption latency" e2e/target/failsafe-reports/*PreemptionLatencyBench-output.txt</pre>
 */
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class PreemptionLatencyBench {

    @Test
    void suspendPreemption_submissionToVictimsStoppedAndPreemptorRunning(@TempDir Path tmp) throws Exception {
        int rounds = Integer.getInteger("gantry.bench.preemptions", 100);
        long settleMs = Long.getLong("gantry.bench.settleMs", 0);
        int warmup = Integer.getInteger("gantry.bench.warmup", 50);
        try (TestCluster cluster = TestCluster.start(tmp, "bench", """
                ClusterName=bench-preempt
                KillWait=2
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                NodeName=b[1-2] CPUs=1 RealMemory=1024
                PartitionName=low Nodes=b[1-2] Default=YES PriorityTier=1 OverSubscribe=FORCE:1 MaxTime=600
                PartitionName=high Nodes=b[1-2] PriorityTier=2 OverSubscribe=FORCE:1 MaxTime=600
                """)) {
            Path beats = Files.createDirectories(cluster.work.resolve("beats"));
            String victim = "exec 3<> <(:); while :; do echo $EPOCHREALTIME >> " + beats + "/$SLURM_JOB_ID; "
                    + "read -t 0.002 -u 3; done";
            List<Long> victims = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                victims.add(cluster.submit("-p", "low", "-N1", "--mem=100", "-o", "/dev/null", "--wrap",
                        "bash -c '" + victim + "'"));
            }
            for (long v : victims) {
                cluster.await(v, j -> j.getState() == JobState.JOB_STATE_RUNNING);
            }
            List<double[]> samples = new ArrayList<>();
            for (int round = 0; round < warmup + rounds; round++) {
                for (long v : victims) {
                    awaitBeating(beats.resolve(Long.toString(v)));
                }
                Thread.sleep(settleMs); // > 0: the controller's pass after the resumes is over (its pause too)
                Path started = cluster.work.resolve("started-" + round);
                JobSpec spec = JobSpec.newBuilder().setName("preemptor").addPartitions("high").setMinNodes(2)
                        .setMaxNodes(2).setMemPerNodeMb(100).setScript("#!/bin/bash\necho $EPOCHREALTIME > " + started
                                + "\nsleep 0.3\n")
                        .setWorkDir(cluster.work.toString()).setStdoutPath("/dev/null").setUser(user())
                        .setUid(uid()).setGid(uid()).putEnvironment("PATH", "/usr/bin:/bin").build();
                Instant submitted = Instant.now();
                long id = cluster.controller.submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
                Job done = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
                assertEquals(JobState.JOB_STATE_COMPLETED, done.getState());
                for (long v : victims) {
                    cluster.await(v, j -> j.getState() == JobState.JOB_STATE_RUNNING);
                }
                BigDecimal t0 = seconds(submitted);
                BigDecimal run = new BigDecimal(Files.readString(started).trim());
                for (long v : victims) { // resumed on its node too, not only in the controller's state
                    Path file = beats.resolve(Long.toString(v));
                    TestCluster.awaitTrue(() -> lastBeat(file).compareTo(run) > 0, file + " beats after the preemptor");
                }
                BigDecimal stopped = BigDecimal.ZERO;
                for (long v : victims) {
                    stopped = stopped.max(stoppedAt(beats.resolve(Long.toString(v)), t0));
                }
                BigDecimal decided = BigDecimal.valueOf(done.getStartTime().getSeconds())
                        .add(BigDecimal.valueOf(done.getStartTime().getNanos(), 9));
                if (round < warmup) {
                    continue; // the services' JIT and first collections, as in a cluster that has run jobs before
                }
                samples.add(new double[] {ms(run.subtract(t0)), ms(stopped.subtract(t0)),
                        ms(run.max(stopped).subtract(t0)), ms(decided.subtract(t0)), t0.doubleValue()});
            }
            cluster.shell.run(cluster.work, "scancel", Long.toString(victims.get(0)), Long.toString(victims.get(1)));
            String report = String.format(Locale.ROOT, "preemption latency (SUSPEND, 2 nodes, %d preemptions after "
                    + warmup + " unmeasured, settle " + settleMs + " ms): %s; %s; %s"
                    + " (of which the controller's decision, the preemptor's start time: %s)", samples.size(),
                    line("preemptor running", samples, 0), line("victims stopped", samples, 1), line("both", samples, 2),
                    line("decided", samples, 3));
            System.out.println(report);
            Files.writeString(Path.of("target", "preemption-latency.txt"), report + "\n");
            // each round's figures, to tell whether a slow round lost its time before or after the decision
            StringBuilder csv = new StringBuilder("round,running_ms,stopped_ms,both_ms,decided_ms,submitted_epoch_s\n");
            for (int i = 0; i < samples.size(); i++) {
                double[] s = samples.get(i);
                csv.append(String.format(Locale.ROOT, "%d,%.1f,%.1f,%.1f,%.1f,%.3f%n", i, s[0], s[1], s[2], s[3], s[4]));
            }
            Files.writeString(Path.of("target", "preemption-latency-rounds.csv"), csv);
            // the services' logs, to line a slow round up with what the services did at that moment
            cluster.copyLogs(Path.of("target", "preemption-latency-logs"));
            assertTrue(samples.size() == rounds);
        }
    }

    /** Waits until the heartbeat file grows (the victim runs). */
    private static void awaitBeating(Path file) throws Exception {
        long before = Files.exists(file) ? Files.size(file) : 0;
        TestCluster.awaitTrue(() -> Files.exists(file) && Files.size(file) > before + 20, file + " grows");
    }

    private static BigDecimal lastBeat(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).isBlank() && lines.get(i).trim().matches("[0-9]+\\.[0-9]+")) {
                return new BigDecimal(lines.get(i).trim());
            }
        }
        return BigDecimal.ZERO;
    }

    /** The heartbeat before the longest gap that ends after {@code t0} (not before {@code t0}). */
    private static BigDecimal stoppedAt(Path file, BigDecimal t0) throws Exception {
        BigDecimal previous = null;
        BigDecimal longest = BigDecimal.ZERO;
        BigDecimal at = null;
        for (String line : Files.readAllLines(file)) {
            if (!line.trim().matches("[0-9]+\\.[0-9]+")) {
                continue; // blank, or a line being written
            }
            BigDecimal t = new BigDecimal(line.trim());
            if (previous != null && t.compareTo(t0) > 0 && t.subtract(previous).compareTo(longest) > 0) {
                longest = t.subtract(previous);
                at = previous.max(t0);
            }
            previous = t;
        }
        if (at == null) {
            throw new AssertionError("no heartbeat after " + t0 + " in " + file);
        }
        return at;
    }

    private static BigDecimal seconds(Instant t) {
        return BigDecimal.valueOf(t.getEpochSecond()).add(BigDecimal.valueOf(t.getNano(), 9));
    }

    private static double ms(BigDecimal seconds) {
        return seconds.doubleValue() * 1000;
    }

    private static String line(String what, List<double[]> samples, int column) {
        double[] v = samples.stream().mapToDouble(s -> s[column]).sorted().toArray();
        return String.format(Locale.ROOT, "%s p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms", what,
                pct(v, 50), pct(v, 90), pct(v, 99), v[v.length - 1]);
    }

    private static double pct(double[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static String user() {
        return System.getProperty("user.name");
    }

    private static int uid() throws Exception {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }
}
