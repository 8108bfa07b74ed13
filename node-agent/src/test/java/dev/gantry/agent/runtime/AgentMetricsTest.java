package dev.gantry.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.api.v1.SuspendJobRequest;
import io.grpc.StatusRuntimeException;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's metrics as Prometheus scrapes them. */
class AgentMetricsTest {

    @TempDir
    Path tmp;

    @Test
    void metrics_countLaunchesSignalsAndJobsByState() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AgentMetrics metrics = new AgentMetrics(registry);
        try (AgentRig rig = new AgentRig(tmp, metrics)) {
            metrics.watch(rig.supervisor);
            rig.launch(1, "#!/bin/bash\nsleep 600\n");
            rig.launch(2, "#!/bin/bash\nsleep 600\n");
            assertThrows(StatusRuntimeException.class, () -> rig.launch(1, "#!/bin/bash\nsleep 600\n"));
            rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(2).build());

            String running = registry.scrape();

            assertContains(running, "gantry_agent_jobs{state=\"running\"} 1.0");
            assertContains(running, "gantry_agent_jobs{state=\"suspended\"} 1.0");
            assertContains(running, "gantry_agent_launches_total{result=\"ok\"} 2.0");
            assertContains(running, "gantry_agent_launches_total{result=\"refused\"} 1.0");
            assertContains(running, "gantry_agent_launches_total{result=\"failed\"} 0.0");
            assertContains(running, "gantry_agent_launch_seconds_bucket{le=");
            assertContains(running, "gantry_agent_launch_seconds_count 2");
            assertContains(running, "gantry_agent_containment_mode{mode=\"process_group\"} 1.0");
            assertContains(running, "gantry_agent_oom_kills_total 0.0");
            Await.until("a usage sample of the running jobs, by partition",
                    () -> registry.scrape().contains("gantry_agent_running_memory_bytes{partition=\"debug\"}"));
            assertContains(registry.scrape(), "gantry_agent_running_cpu_seconds{partition=\"debug\"}");

            rig.terminate(1, 30);
            rig.awaitExit(1);

            assertContains(registry.scrape(), "gantry_agent_kills_total{signal=\"TERM\"} 1.0");
            // the exit is reported before the job leaves the table (JobCompletion), so the gauge follows a moment later
            Await.until("job 1 gone from the running jobs",
                    () -> registry.scrape().contains("gantry_agent_jobs{state=\"running\"} 0.0"));
        }
    }

    private static void assertContains(String scrape, String line) {
        assertTrue(scrape.contains(line), "missing '" + line + "' in:\n" + scrape);
    }
}
