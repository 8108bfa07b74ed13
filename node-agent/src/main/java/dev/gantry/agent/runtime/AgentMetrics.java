package dev.gantry.agent.runtime;

import dev.gantry.agent.grpc.LaunchForwarder;
import dev.gantry.agent.job.AgentJobState;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.job.Signals;
import dev.gantry.agent.process.FavorDynmods;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.UsageSample;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's metrics, all prefixed {@code gantry_agent_}: {@code jobs{state=running|suspended}},
 * {@code launches_total{result=ok|refused|failed}}, {@code launch_seconds} (credential check to process
 * started, a histogram), {@code kills_total{signal}} (signals delivered to jobs, by name: TERM, KILL, …),
 * {@code oom_kills_total} (jobs that ended out of memory), {@code running_cpu_seconds{partition}} and
 * {@code running_memory_bytes{partition}} (CPU time so far and resident memory now of the jobs running on this
 * node, summed per partition, from the periodic sample) and {@code containment_mode{mode}} (1 for the mode in
 * use), {@code cgroup_favordynmods} (1 when the host's cgroup2 mount has favordynmods: {@link FavorDynmods}), {@code launch_forwards_total{result=ok|failed}} (multi-node launches sent on to another agent), {@code step_tasks_total} (job step tasks started here). Never labelled by job or user. Thread-safe.
 */
public final class AgentMetrics implements JobTelemetry, LaunchForwarder.Telemetry {

    private final MeterRegistry registry;
    private final Timer launchSeconds;
    private final Counter oomKills;
    /** partition -> {cpu seconds, memory bytes} of its running jobs at the latest sample */
    private final Map<String, double[]> byPartition = new ConcurrentHashMap<>();

    public AgentMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.launchSeconds = Timer.builder("gantry_agent_launch")
                .description("Time from a LaunchJob's credential check to its batch script running")
                .publishPercentileHistogram()
                .register(registry);
        this.oomKills = Counter.builder("gantry_agent_oom_kills_total")
                .description("Jobs that ended because the kernel killed a process of theirs for exceeding the memory limit")
                .register(registry);
        for (String result : new String[] {"ok", "refused", "failed"}) {
            launches(result);
        }
        forwards("ok");
        forwards("failed");
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
        Gauge.builder("gantry_agent_cgroup_favordynmods", () -> FavorDynmods.isSet() ? 1 : 0)
                .description("1 when the host's cgroup2 mount has favordynmods (a launch's move into its cgroup skips an RCU grace period)")
                .register(registry);
    }

    /** Counts the local authenticator's answers: tokens issued, requests refused (a uid without an account). */
    public void watch(dev.gantry.agent.auth.LocalAuthenticator authenticator) {
        io.micrometer.core.instrument.FunctionCounter.builder("gantry_agent_auth_tokens", authenticator,
                        dev.gantry.agent.auth.LocalAuthenticator::issued)
                .description("Local authenticator answers (AuthType=auth/local), by outcome")
                .tag("outcome", "issued").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("gantry_agent_auth_tokens", authenticator,
                        dev.gantry.agent.auth.LocalAuthenticator::refused)
                .description("Local authenticator answers (AuthType=auth/local), by outcome")
                .tag("outcome", "refused").register(registry);
    }

    @Override
    public void launched(LaunchOutcome outcome, Duration startLatency) {
        launches(outcome.result()).increment();
        if (startLatency != null) {
            launchSeconds.record(startLatency);
        }
    }

    /** {@code gantry_agent_launch_forwards_total{result=ok|failed}}: multi-node launches this agent sent on to another. */
    @Override
    public void forwarded(boolean ok) {
        forwards(ok ? "ok" : "failed").increment();
    }

    /** {@code gantry_agent_step_tasks_total}: tasks of job steps (srun) started on this node. */
    public void stepTasksStarted(long tasks) {
        Counter.builder("gantry_agent_step_tasks_total")
                .description("Tasks of job steps (srun) started on this node")
                .register(registry)
                .increment(tasks);
    }

    private Counter forwards(String result) {
        return Counter.builder("gantry_agent_launch_forwards_total")
                .description("Multi-node launches this agent forwarded to another node's agent (TreeWidth fan-out), by result")
                .tag("result", result)
                .register(registry);
    }

    @Override
    public void signalled(int signal) {
        Counter.builder("gantry_agent_kills_total")
                .description("Signals delivered to jobs' processes")
                .tag("signal", Signals.name(signal))
                .register(registry)
                .increment();
    }

    @Override
    public void outOfMemory() {
        oomKills.increment();
    }

    @Override
    public void sampled(List<UsageSample> running) {
        Map<String, double[]> sums = new HashMap<>();
        for (UsageSample u : running) {
            double[] sum = sums.computeIfAbsent(u.partition(), p -> new double[2]);
            sum[0] += u.cpuSeconds();
            sum[1] += u.rssKb() * 1024.0;
        }
        for (String partition : sums.keySet()) {
            byPartition.computeIfAbsent(partition, this::registerPartition);
        }
        byPartition.forEach((partition, values) -> {
            double[] sum = sums.getOrDefault(partition, new double[2]);
            values[0] = sum[0];
            values[1] = sum[1];
        });
    }

    private double[] registerPartition(String partition) {
        double[] values = new double[2];
        Gauge.builder("gantry_agent_running_cpu_seconds", values, v -> v[0])
                .description("CPU seconds used so far by the jobs running on this node, per partition")
                .tag("partition", partition)
                .register(registry);
        Gauge.builder("gantry_agent_running_memory_bytes", values, v -> v[1])
                .description("Resident memory of the jobs running on this node, per partition")
                .tag("partition", partition)
                .register(registry);
        return values;
    }

    private Counter launches(String result) {
        return Counter.builder("gantry_agent_launches_total")
                .description("LaunchJob calls by result")
                .tag("result", result)
                .register(registry);
    }

    private static double count(JobSupervisor supervisor, String label) {
        return supervisor.countByState().entrySet().stream()
                .filter(e -> e.getKey() != AgentJobState.STARTING && e.getKey().metricLabel().equals(label))
                .mapToInt(e -> e.getValue())
                .sum();
    }
}
