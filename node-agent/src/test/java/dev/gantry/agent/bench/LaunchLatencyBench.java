package dev.gantry.agent.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Cgroups;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.api.v1.LaunchJobRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Load driver for the launch latency the issue bounds (p99 under 20 ms): the time the agent's LaunchJob takes from
 * the credential check to the batch script running in place (joined its cgroups or leading its process group),
 * i.e. what {@code gantry_agent_launch_seconds} records. Trivial jobs ({@code true}), at most 8 running at once,
 * after 100 warm-up launches. Not a test: skipped unless {@code -Dgantry.bench=true}.
 *
 * <pre>./mvnw -q -pl node-agent -am test -Dtest=LaunchLatencyBench -Dgantry.bench=true -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class LaunchLatencyBench {

    private static final int WARMUP = 100;
    private static final int MEASURED = Integer.getInteger("gantry.bench.launches", 1000);
    private static final String TRUE = "#!/bin/sh\ntrue\n";

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"process_group", "cgroup"})
    void launchLatency(String mode) {
        assumeTrue(Boolean.getBoolean("gantry.bench"), "benchmark: run with -Dgantry.bench=true");
        List<Long> nanos = new ArrayList<>();
        JobTelemetry recorder = new JobTelemetry() {
            @Override
            public synchronized void launched(LaunchOutcome outcome, Duration startLatency) {
                if (startLatency != null) {
                    nanos.add(startLatency.toNanos());
                }
            }

            @Override
            public void signalled(int signal) {}
        };
        Containment containment = mode.equals("cgroup") ? Cgroups.required(tmp) : new ProcessGroupContainment();
        try (AgentRig rig = new AgentRig(tmp, recorder, containment)) {
            for (int i = 1; i <= WARMUP + MEASURED; i++) {
                long id = i;
                Await.until("fewer than 8 jobs running", () -> rig.supervisor.runningJobIds().size() < 8);
                LaunchJobRequest request = rig.request(id, TRUE).build();
                rig.agent.launchJob(request);
            }
            Await.until("every job ended", () -> rig.hub.exits.size() == WARMUP + MEASURED);
        }
        long[] measured;
        synchronized (recorder) {
            measured = nanos.stream().skip(WARMUP).mapToLong(Long::longValue).sorted().toArray();
        }
        assertEquals(MEASURED, measured.length);
        System.out.printf(Locale.ROOT, "launch latency [%s, uid %d, %d launches]: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                containment.mode(), Credentials.OWN_UID, measured.length, ms(measured, 0.50), ms(measured, 0.90), ms(measured, 0.99),
                measured[measured.length - 1] / 1e6);
    }

    private static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

}
