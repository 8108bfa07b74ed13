package dev.gantry.agent.runtime;

import dev.gantry.agent.job.JobState;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.job.Signals;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.JobTelemetry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The agent's metrics, all prefixed {@code gantry_agent_}: {@code jobs{state=running|suspended}},
 * {@code launches_total{result=ok|refused|failed}}, {@code launch_seconds} (credential check to process
 * started, a histogram), {@code kills_total{signal}} (signals delivered to jobs, by name: TERM, KILL, …) and
 * {@code containment_mode{mode}} (1 for the mode in use). Never labelled by job or user. Thread-safe.
 */
public final class AgentMetrics implements JobTelemetry {

    private final MeterRegistry registry;
    private final Timer launchSeconds;

    public AgentMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.launchSeconds = Timer.builder("gantry_agent_launch")
                .description("Time from a LaunchJob's credential check to its batch script running")
                .publishPercentileHistogram()
                .register(registry);
        for (String result : new String[] {"ok", "refused", "failed"}) {
            launches(result);
        }
    }

    /** Registers the gauges that read the supervisor's job table. */
    public void watch(JobSupervisor supervisor) {
        Gauge.builder("gantry_agent_jobs", supervisor, s -> count(s, "running"))
                .description("Jobs on this node by state")
                .tag("state", "running")
                .register(registry);
        Gauge.builder("gantry_agent_jobs", supervisor, s -> count(s, "suspended"))
                .description("Jobs on this node by state")
                .tag("state", "suspended")
                .register(registry);
        Gauge.builder("gantry_agent_containment_mode", () -> 1)
                .description("How this agent holds a job's processes together (1 for the mode in use)")
                .tag("mode", supervisor.containmentMode())
                .register(registry);
    }

    @Override
    public void launched(LaunchOutcome outcome, Duration startLatency) {
        launches(outcome.result()).increment();
        if (startLatency != null) {
            launchSeconds.record(startLatency);
        }
    }

    @Override
    public void signalled(int signal) {
        Counter.builder("gantry_agent_kills_total")
                .description("Signals delivered to jobs' processes")
                .tag("signal", Signals.name(signal))
                .register(registry)
                .increment();
    }

    private Counter launches(String result) {
        return Counter.builder("gantry_agent_launches_total")
                .description("LaunchJob calls by result")
                .tag("result", result)
                .register(registry);
    }

    private static double count(JobSupervisor supervisor, String label) {
        return supervisor.countByState().entrySet().stream()
                .filter(e -> e.getKey() != JobState.STARTING && e.getKey().metricLabel().equals(label))
                .mapToInt(e -> e.getValue())
                .sum();
    }
}
