package dev.gantry.scheduler.runtime;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * scheduler-svc's metrics (prefix gantry_). Labels are partition, state, pass and result only: never a job id
 * or a user, so the series stay bounded by config size.
 */
public final class SchedulerMetrics {

    private final MeterRegistry registry;
    private final MultiGauge jobs;
    private final MultiGauge nodes;
    private final MultiGauge pending;
    private final MultiGauge cpus;
    private final MultiGauge memory;
    private final MultiGauge gres;
    private final Timer mainPass;
    private final DistributionSummary commitBatch;

    public SchedulerMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.jobs = MultiGauge.builder("gantry_jobs").description("Jobs known to the controller, by state and partition")
                .register(registry);
        this.nodes = MultiGauge.builder("gantry_nodes").description("Nodes by state").register(registry);
        this.pending = MultiGauge.builder("gantry_jobs_pending")
                .description("Pending jobs by partition and Slurm pending reason").register(registry);
        this.cpus = MultiGauge.builder("gantry_node_cpus")
                .description("CPUs of all configured nodes (state=total) and allocated to jobs (state=allocated)")
                .register(registry);
        this.memory = MultiGauge.builder("gantry_node_memory_bytes")
                .description("Memory of all configured nodes (state=total) and allocated to jobs (state=allocated)")
                .register(registry);
        this.gres = MultiGauge.builder("gantry_node_gres")
                .description("Generic resources (GPUs, …) of all configured nodes (state=total) and allocated to jobs (state=allocated), by name")
                .register(registry);
        this.mainPass = Timer.builder("gantry_scheduler_cycle_seconds").tag("pass", "main")
                .description("Duration of one scheduling pass, including the select-svc plan call")
                .publishPercentileHistogram().register(registry);
        this.backfillPass = Timer.builder("gantry_scheduler_cycle_seconds").tag("pass", "backfill")
                .description("Duration of one scheduling pass, including the select-svc plan call")
                .publishPercentileHistogram().register(registry);
        Gauge.builder("gantry_backfill_depth", backfillDepth, java.util.concurrent.atomic.AtomicLong::get)
                .description("Jobs the last backfill pass tested").register(registry);
        Gauge.builder("gantry_backfill_reservations", backfillReservations, java.util.concurrent.atomic.AtomicLong::get)
                .description("Pending jobs holding a backfill reservation after the last pass").register(registry);
        this.victimsPerPreemptor = DistributionSummary.builder("gantry_preemption_victims")
                .description("Victims per preemptor").publishPercentileHistogram().register(registry);
        this.gangSuspended = Counter.builder("gantry_jobs_suspended_total").tag("by", "gang")
                .description("Jobs the controller suspended, by who asked").register(registry);
        this.gangResumed = Counter.builder("gantry_jobs_resumed_total").tag("by", "gang")
                .description("Jobs the controller resumed, by who asked").register(registry);
        this.gangRefused = Counter.builder("gantry_gang_decisions_refused_total")
                .description("gang-svc suspend/resume decisions the controller refused: made on a view older than the job's "
                        + "latest change, or a resume that would overlap a running job of the same or a higher tier")
                .register(registry);
        this.operatorSuspended = Counter.builder("gantry_jobs_suspended_total").tag("by", "scontrol")
                .description("Jobs the controller suspended, by who asked").register(registry);
        this.operatorResumed = Counter.builder("gantry_jobs_resumed_total").tag("by", "scontrol")
                .description("Jobs the controller resumed, by who asked").register(registry);
        this.commitBatch = DistributionSummary.builder("gantry_store_commit_batch_jobs")
                .description("Job writes per database transaction (group commit)").publishPercentileHistogram()
                .register(registry);
    }

    public void gaugeBacklog(Supplier<Number> backlog, Supplier<Number> subscribers) {
        Gauge.builder("gantry_store_write_backlog", backlog).description("Job writes queued, not yet committed")
                .register(registry);
        Gauge.builder("gantry_event_subscribers", subscribers).description("Event stream subscribers").register(registry);
    }

    // Meters per label value, made once: these are called for every job, and a builder plus a registry
    // lookup per call is work (and garbage) the submission path need not do. Bounded by partitions x states.
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> submittedBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> startedBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<String, Timer> waitBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<List<String>, Counter> endedBy = new java.util.concurrent.ConcurrentHashMap<>();

    public void submitted(String partition) {
        submittedBy.computeIfAbsent(partition, p -> Counter.builder("gantry_jobs_submitted_total").tag("partition", p)
                .register(registry)).increment();
    }

    public void started(JobRecord j, Instant submitted, Instant now) {
        startedBy.computeIfAbsent(j.partition(), p -> Counter.builder("gantry_jobs_started_total").tag("partition", p)
                .register(registry)).increment();
        waitBy.computeIfAbsent(j.partition(), p -> Timer.builder("gantry_job_wait_seconds").tag("partition", p)
                .description("Time from submission to start").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10)).maximumExpectedValue(Duration.ofDays(7))
                .register(registry)).record(Duration.between(submitted, now));
    }

    public void ended(JobRecord j) {
        List<String> key = List.of(j.partition(), j.state().name().toLowerCase(Locale.ROOT));
        endedBy.computeIfAbsent(key, k -> Counter.builder("gantry_jobs_ended_total").tag("partition", k.get(0))
                .tag("state", k.get(1)).register(registry)).increment();
    }

    /** {@code gantry_scheduler_steps_started_total{partition}}: job steps (srun) created. */
    public void stepStarted(String partition) {
        Counter.builder("gantry_scheduler_steps_started_total").tag("partition", partition)
                .description("Job steps (srun inside an allocation) created").register(registry).increment();
    }

    public void launchRoundTrip(long nanos, boolean ok) {
        Timer.builder("gantry_scheduler_launch_rpc_seconds").tag("result", ok ? "ok" : "error")
                .description("LaunchJob round trip from controller to agent").publishPercentileHistogram()
                .register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }

    private final java.util.concurrent.ConcurrentHashMap<String, Counter> backfilledBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final Timer backfillPass;
    private final Counter gangSuspended;
    private final DistributionSummary victimsPerPreemptor;
    private final Counter gangResumed;
    private final Counter gangRefused;
    private final Counter operatorSuspended;
    private final Counter operatorResumed;
    private final java.util.concurrent.atomic.AtomicLong backfillDepth = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong backfillReservations = new java.util.concurrent.atomic.AtomicLong();

    /** One backfill pass: its duration, how many jobs it tested, started and holds reservations for. */
    public void backfillPass(long nanos, int tested, int started, int reservations) {
        backfillPass.record(nanos, TimeUnit.NANOSECONDS);
        backfillDepth.set(tested);
        backfillReservations.set(reservations);
    }

    /** A job the backfill pass started (it started ahead of a blocked, higher-priority job). */
    public void backfilled(String partition) {
        backfilledBy.computeIfAbsent(partition, p -> Counter.builder("gantry_backfill_started_total").tag("partition", p)
                .description("Jobs started by the backfill pass").register(registry)).increment();
    }

    private final java.util.concurrent.ConcurrentHashMap<String, Counter> disagreementsBy = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A placement select-svc proposed on the controller's current state and the controller refused: the two disagree on
     * the placement rules (dev.gantry.scheduler.cycle.PlacementRefusal), by the pass that asked.
     */
    public void placementDisagreement(String pass) {
        disagreementsBy.computeIfAbsent(pass, p -> Counter.builder("gantry_placement_disagreements_total").tag("pass", p)
                .description("Placements select-svc proposed on the current state that the controller refused")
                .register(registry)).increment();
    }

    private final java.util.concurrent.ConcurrentHashMap<List<String>, Counter> preemptedBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<List<String>, Counter> escalatedBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> refusedBy = new java.util.concurrent.ConcurrentHashMap<>();

    /** A victim preempted, by the mode applied (after escalation), its partition and its QOS. */
    public void preempted(String mode, String partition, String qos) {
        preemptedBy.computeIfAbsent(List.of(mode, partition, qos), k -> Counter.builder("gantry_preemptions_total")
                .tag("mode", k.get(0)).tag("partition", k.get(1)).tag("qos", k.get(2))
                .description("Jobs preempted, by mode applied, their partition and QOS").register(registry)).increment();
    }

    /** A victim's mode raised because the configured one was impossible (Moab's escalation). */
    public void escalated(String from, String to) {
        escalatedBy.computeIfAbsent(List.of(from, to), k -> Counter.builder("gantry_preemption_escalations_total")
                .tag("from", k.get(0)).tag("to", k.get(1))
                .description("Preemptions whose mode was escalated").register(registry)).increment();
    }

    /** A preemptor that preempted nothing, by why. */
    public void preemptionRefused(String why) {
        refusedBy.computeIfAbsent(why, w -> Counter.builder("gantry_preemption_refused_total").tag("why", w)
                .description("Preemption plans not carried out, by why").register(registry)).increment();
    }

    private final java.util.concurrent.ConcurrentHashMap<String, Counter> graceKillsBy = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> exemptBy = new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.concurrent.ConcurrentHashMap<String, Counter> staleRunBy = new java.util.concurrent.ConcurrentHashMap<>();

    /** An agent's report about another run of a job than its current one, ignored, by kind ({@code exit}, {@code usage}). */
    public void staleRunReport(String kind) {
        staleRunBy.computeIfAbsent(kind, k -> Counter.builder("gantry_stale_run_reports_total").tag("kind", k)
                .description("Exit reports and usage from agents about another run of a job than its current one, ignored")
                .register(registry)).increment();
    }

    /** A CANCEL or REQUEUE victim whose processes outlived its GraceTime, by its partition. */
    public void graceKill(String partition) {
        graceKillsBy.computeIfAbsent(partition, p -> Counter.builder("gantry_preemption_grace_kills_total")
                .tag("partition", p).description("Preemption victims killed because their GraceTime ran out")
                .register(registry)).increment();
    }

    /** A running job kept from a preemptor by a time exemption (counted once per preemptor and job), by rule. */
    public void exemptRefusal(String rule) {
        exemptBy.computeIfAbsent(rule, r -> Counter.builder("gantry_preemption_exempt_total").tag("rule", r)
                .description("Preemption candidates kept by PreemptExemptTime, PreemptMinActiveTime or "
                        + "PreemptMaxActiveTime").register(registry)).increment();
    }

    /** Jobs an operator suspended or resumed (scontrol suspend, resume). */
    public void manualSuspension(boolean suspended) {
        (suspended ? operatorSuspended : operatorResumed).increment();
    }

    /** How many victims one preemptor took. */
    public void victims(int count) {
        victimsPerPreemptor.record(count);
    }

    /** Jobs gang scheduling suspended and resumed in one applied slice. */
    public void slice(int suspended, int resumed) {
        gangSuspended.increment(suspended);
        gangResumed.increment(resumed);
    }

    public void sliceRefusals(int refused) {
        gangRefused.increment(refused);
    }

    public void mainPass(long nanos) {
        mainPass.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void committed(int batch) {
        commitBatch.record(batch);
    }

    /** Refreshes the state gauges (controller thread). */
    public void refresh(ClusterState state) {
        // every second over every job, on the controller thread: per job one partition lookup and two array
        // increments, no allocation (a million pending jobs made this most of the thread's time)
        JobState[] states = JobState.values();
        PendingReason[] reasons = PendingReason.values();
        Map<String, int[]> byPartition = new HashMap<>(); // per state, then [states.length] = completing
        Map<String, int[]> pendingByReason = new HashMap<>();
        for (JobRecord j : state.jobs()) {
            int[] counts = byPartition.get(j.partition());
            if (counts == null) {
                counts = new int[states.length + 1];
                byPartition.put(j.partition(), counts);
            }
            counts[j.completing() ? states.length : j.state().ordinal()]++;
            if (!j.completing() && j.state() == JobState.PENDING) {
                int[] byReason = pendingByReason.get(j.partition());
                if (byReason == null) {
                    byReason = new int[reasons.length];
                    pendingByReason.put(j.partition(), byReason);
                }
                byReason[j.pendingReason().ordinal()]++;
            }
        }
        List<MultiGauge.Row<?>> pendingRows = new ArrayList<>();
        pendingByReason.forEach((partition, counts) -> {
            for (PendingReason r : reasons) {
                if (counts[r.ordinal()] > 0) {
                    pendingRows.add(MultiGauge.Row.of(Tags.of("partition", partition, "reason", r.slurmName()), counts[r.ordinal()]));
                }
            }
        });
        pending.register(pendingRows, true);
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        byPartition.forEach((partition, counts) -> {
            for (int i = 0; i <= states.length; i++) {
                if (counts[i] > 0) {
                    String name = i == states.length ? "completing" : states[i].name().toLowerCase(Locale.ROOT);
                    rows.add(MultiGauge.Row.of(Tags.of("state", name, "partition", partition), counts[i]));
                }
            }
        });
        jobs.register(rows, true);
        Map<String, Integer> byNodeState = new HashMap<>();
        long totalCpus = 0;
        long allocCpus = 0;
        long totalMemoryMb = 0;
        long allocMemoryMb = 0;
        Map<List<String>, Long> gresCounts = new HashMap<>();
        for (NodeRecord n : state.nodes()) {
            for (var g : n.config().gres()) {
                gresCounts.merge(List.of(g.name(), "total"), g.count(), Long::sum);
                gresCounts.putIfAbsent(List.of(g.name(), "allocated"), 0L);
            }
            state.gresInUse(n.name()).forEach((key, count) -> {
                int colon = key.indexOf(':');
                gresCounts.merge(List.of(colon < 0 ? key : key.substring(0, colon), "allocated"), count, Long::sum);
            });
            totalCpus += n.config().cpus();
            allocCpus += Math.min(n.allocCpus(), n.config().cpus()); // CPUs a SUSPEND preemptor shares count once
            totalMemoryMb += n.config().realMemoryMb();
            allocMemoryMb += n.allocMemoryMb();
            String s = n.baseState().name().toLowerCase(Locale.ROOT) + (n.drain() ? "+drain" : "");
            byNodeState.merge(s, 1, Integer::sum);
        }
        List<MultiGauge.Row<?>> nodeRows = new ArrayList<>();
        byNodeState.forEach((s, v) -> nodeRows.add(MultiGauge.Row.of(Tags.of("state", s), v)));
        nodes.register(nodeRows, true);
        List<MultiGauge.Row<?>> gresRows = new ArrayList<>();
        gresCounts.forEach((k, v) -> gresRows.add(MultiGauge.Row.of(Tags.of("name", k.get(0), "state", k.get(1)), v)));
        gres.register(gresRows, true);
        cpus.register(List.of(MultiGauge.Row.of(Tags.of("state", "total"), totalCpus),
                MultiGauge.Row.of(Tags.of("state", "allocated"), allocCpus)), true);
        memory.register(List.of(MultiGauge.Row.of(Tags.of("state", "total"), totalMemoryMb * MIB),
                MultiGauge.Row.of(Tags.of("state", "allocated"), allocMemoryMb * MIB)), true);
    }

    private static final long MIB = 1024L * 1024L;
}
