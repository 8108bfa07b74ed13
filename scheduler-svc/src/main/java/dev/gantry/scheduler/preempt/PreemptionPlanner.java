package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.CandidateList.Kept;
import dev.gantry.scheduler.preempt.PreemptionPlan.Refused;
import dev.gantry.scheduler.preempt.Verdict.Preemptable;
import dev.gantry.scheduler.preempt.Verdict.Protected;
import dev.gantry.scheduler.preempt.Verdict.Protection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * Preemption's two decisions for one pending job (docs/style.md rule 2: decide here, act in the runtime):
 * <ol>
 *   <li>{@link #candidates}: the running jobs it may preempt, most preemptable first — select-svc's PlacePreempting
 *       takes them and names the victims its placement needs;</li>
 *   <li>{@link #plan}: re-checks those victims against current state and decides each one's final mode (escalating
 *       SUSPEND → REQUEUE → CANCEL when the configured mode is impossible, as Moab does) and grace time, or refuses
 *       (more than PreemptMaxVictims, a victim no longer preemptable).</li>
 * </ol>
 * Pure: no clock, no I/O. Immutable, so one instance may be shared between threads.
 */
public final class PreemptionPlanner {

    /** Protections worth reporting (exempt refusals); the others mean "never a candidate" and would only be noise. */
    private static final Set<Protection> REPORTED = EnumSet.of(Protection.EXCLUSIVE_USER, Protection.PRIORITY_EXEMPT,
            Protection.EXEMPT_TIME, Protection.MIN_ACTIVE_TIME, Protection.MAX_ACTIVE_TIME);

    private final PreemptSettings settings;
    private final VictimRules rules;
    private final Predicate<JobRecord> exclusiveUser;

    /** A job is user-exclusive when it asked --exclusive=user (its request) or runs in an ExclusiveUser=YES partition. */
    public PreemptionPlanner(PreemptSettings settings) {
        this(settings, PreemptionPlanner::askedExclusiveUser);
    }

    /** sbatch --exclusive=user. */
    public static boolean askedExclusiveUser(JobRecord job) {
        return job.request() != null && job.request().exclusiveUser();
    }

    /** @param exclusiveUser whether a job asked --exclusive=user */
    public PreemptionPlanner(PreemptSettings settings, Predicate<JobRecord> exclusiveUser) {
        this.settings = settings;
        this.rules = new VictimRules(settings);
        this.exclusiveUser = exclusiveUser;
    }

    public PreemptSettings settings() {
        return settings;
    }

    /** The jobs holding resources, in victim order: build once per cycle, share between preemptors. */
    public VictimPool pool(Collection<JobRecord> jobs) {
        return VictimPool.of(settings, jobs);
    }

    /** The candidates for a pending job in its record's partition (sorts {@code jobs}; prefer a shared pool). */
    public CandidateList candidates(JobRecord preemptor, Collection<JobRecord> jobs, Instant now) {
        return candidates(preemptor, preemptor.partition(), pool(jobs), now);
    }

    /**
     * @param partition where the preemptor would run
     * @param pool the jobs holding resources, in victim order ({@link #pool})
     */
    public CandidateList candidates(JobRecord preemptor, String partition, VictimPool pool, Instant now) {
        Contender p = Contender.in(preemptor, partition, settings, exclusiveUser.test(preemptor));
        List<Long> ok = new ArrayList<>();
        List<Kept> kept = new ArrayList<>();
        for (JobRecord j : pool.jobs()) {
            if (j.id() == preemptor.id() || !rules.mayOutrank(p, j)) {
                continue; // never a candidate: skip judge's reason text
            }
            switch (rules.judge(p, contender(j), now)) {
                case Preemptable x -> ok.add(j.id());
                case Protected x when REPORTED.contains(x.kind()) -> kept.add(new Kept(j.id(), x));
                case Protected x -> { }
            }
        }
        kept.sort(Comparator.comparingLong(Kept::jobId));
        return new CandidateList(preemptor.id(), ok, kept, settings.parameters().reorderCount(),
                settings.parameters().strictOrder());
    }

    /** The same with no GRES facts: suspended victims' GRES are not checked. */
    public PreemptionPlan plan(JobRecord preemptor, String partition, List<NodeShare> placement, List<Long> victimIds,
            LongFunction<JobRecord> jobs, Map<String, NodeMemory> memory, Instant now) {
        return plan(preemptor, partition, placement, victimIds, jobs, memory, Map.of(), now);
    }

    /**
     * Decides what happens to the victims select-svc named. Victims keep select-svc's order.
     *
     * @param partition where the preemptor starts
     * @param placement what the preemptor gets on each node (memory and GRES per node are what must fit beside
     *     suspended victims)
     * @param victimIds select-svc's victims
     * @param jobs current state: a job by id, null when gone
     * @param memory per node name; a node missing or with capacity 0 does not track memory
     * @param gres per node name; a node missing is not checked
     */
    public PreemptionPlan plan(JobRecord preemptor, String partition, List<NodeShare> placement, List<Long> victimIds,
            LongFunction<JobRecord> jobs, Map<String, NodeMemory> memory, Map<String, NodeGres> gres, Instant now) {
        long id = preemptor.id();
        if (victimIds.size() > settings.maxVictims()) {
            return new Refused(id, Refused.Why.TOO_MANY_VICTIMS, "needs " + victimIds.size()
                    + " victims, more than PreemptMaxVictims=" + settings.maxVictims());
        }
        Contender p = Contender.in(preemptor, partition, settings, exclusiveUser.test(preemptor));
        Map<Long, Victim> victims = new LinkedHashMap<>();
        for (long vid : victimIds) {
            JobRecord v = jobs.apply(vid);
            if (v == null) {
                return new Refused(id, Refused.Why.VICTIM_PROTECTED, "job " + vid + " is gone");
            }
            switch (rules.judge(p, contender(v), now)) {
                case Preemptable ok -> victims.put(vid, new Victim(v, ok));
                case Protected no -> {
                    return new Refused(id, Refused.Why.VICTIM_PROTECTED, "job " + vid + " " + no.reason());
                }
            }
        }
        String memoryProblem = escalateForMemory(placement, victims, memory);
        if (memoryProblem != null) {
            return new Refused(id, Refused.Why.MEMORY, memoryProblem);
        }
        String gresProblem = escalateForGres(placement, victims, gres);
        if (gresProblem != null) {
            return new Refused(id, Refused.Why.GRES, gresProblem);
        }
        List<VictimPlan> plans = new ArrayList<>();
        List<Escalation> escalations = new ArrayList<>();
        for (Victim v : victims.values()) {
            if (v.mode == PreemptAction.REQUEUE && !v.job.controls().requeue()) {
                v.escalate(PreemptAction.CANCEL, Escalation.Why.NOT_REQUEUEABLE,
                        "may not be requeued (--no-requeue, or JobRequeue=0)");
            }
            if (v.verdict.mode() == PreemptAction.SUSPEND && v.mode != PreemptAction.SUSPEND) {
                Protected exempt = rules.exemptTime(v.job, v.mode, now);
                if (exempt != null) {
                    return new Refused(id, Refused.Why.ESCALATION_EXEMPT, "job " + v.job.id() + " cannot be "
                            + "suspended (" + v.escalations.get(0).detail() + ") and is exempt from REQUEUE and "
                            + "CANCEL: " + exempt.reason());
                }
            }
            boolean suspended = v.mode == PreemptAction.SUSPEND;
            plans.add(new VictimPlan(v.job.id(), v.verdict.mode(), v.mode, suspended ? 0 : settings.graceOf(v.job),
                    suspended && v.verdict.timeSliced()));
            escalations.addAll(v.escalations);
        }
        return new PreemptionPlan.Go(id, plans, escalations);
    }

    /**
     * On each node the preemptor uses (in name order), escalates SUSPEND victims there to REQUEUE, most preemptable
     * first, until the memory held there (by every job, less the victims that leave) plus the preemptor's fits.
     *
     * @return null, or why the preemptor does not fit even with every victim on some node gone
     */
    private static String escalateForMemory(List<NodeShare> placement, Map<Long, Victim> victims,
            Map<String, NodeMemory> memory) {
        Map<String, Long> wanted = new TreeMap<>();
        placement.forEach(s -> wanted.merge(s.node(), s.memoryMb(), Long::sum));
        for (Map.Entry<String, Long> e : wanted.entrySet()) {
            String node = e.getKey();
            NodeMemory m = memory.get(node);
            if (m == null || m.capacityMb() <= 0) {
                continue;
            }
            long need = m.heldMb() + e.getValue();
            for (Victim v : victims.values()) {
                if (v.mode != PreemptAction.SUSPEND) {
                    need -= v.memoryOn(node);
                }
            }
            for (Victim v : victims.values()) {
                if (need <= m.capacityMb()) {
                    break;
                }
                long held = v.memoryOn(node);
                if (v.mode == PreemptAction.SUSPEND && held > 0) {
                    v.escalate(PreemptAction.REQUEUE, Escalation.Why.MEMORY, "node " + node + ": " + need
                            + " MiB needed with it suspended there, " + m.capacityMb() + " MiB available");
                    need -= held;
                }
            }
            if (need > m.capacityMb()) {
                return "node " + node + ": " + need + " MiB needed, " + m.capacityMb()
                        + " MiB available even with every victim there requeued or cancelled";
            }
        }
        return null;
    }

    /**
     * The same for GRES, which a suspended job keeps too: on each node the preemptor uses (in name order) and for each
     * pool it is granted there (in key order), escalates SUSPEND victims holding that pool to REQUEUE, most preemptable
     * first, until what is held there (less the victims that leave) plus the preemptor's grant fits the configured
     * count.
     *
     * @return null, or why the preemptor's GRES are not free even with every victim on some node gone
     */
    private static String escalateForGres(List<NodeShare> placement, Map<Long, Victim> victims,
            Map<String, NodeGres> gres) {
        Map<String, Map<String, Long>> wanted = new TreeMap<>();
        for (NodeShare s : placement) {
            s.gres().forEach(g -> wanted.computeIfAbsent(s.node(), n -> new TreeMap<>())
                    .merge(g.key(), g.count(), Long::sum));
        }
        for (Map.Entry<String, Map<String, Long>> onNode : wanted.entrySet()) {
            String node = onNode.getKey();
            NodeGres n = gres.get(node);
            if (n == null) {
                continue;
            }
            for (Map.Entry<String, Long> e : onNode.getValue().entrySet()) {
                String key = e.getKey();
                long configured = n.configured().getOrDefault(key, 0L);
                long need = n.held().getOrDefault(key, 0L) + e.getValue();
                for (Victim v : victims.values()) {
                    if (v.mode != PreemptAction.SUSPEND) {
                        need -= v.gresOn(node, key);
                    }
                }
                for (Victim v : victims.values()) {
                    if (need <= configured) {
                        break;
                    }
                    long held = v.gresOn(node, key);
                    if (v.mode == PreemptAction.SUSPEND && held > 0) {
                        v.escalate(PreemptAction.REQUEUE, Escalation.Why.GRES, "node " + node + ": " + need + " "
                                + key + " needed with it suspended there, " + configured + " configured");
                        need -= held;
                    }
                }
                if (need > configured) {
                    return "node " + node + ": " + need + " " + key + " needed, " + configured
                            + " configured even with every victim there requeued or cancelled";
                }
            }
        }
        return null;
    }

    private Contender contender(JobRecord j) {
        return Contender.of(j, settings, exclusiveUser.test(j));
    }

    /** A victim while its mode is decided. */
    private static final class Victim {
        final JobRecord job;
        final Preemptable verdict;
        final List<Escalation> escalations = new ArrayList<>();
        PreemptAction mode;

        Victim(JobRecord job, Preemptable verdict) {
            this.job = job;
            this.verdict = verdict;
            this.mode = verdict.mode();
        }

        void escalate(PreemptAction to, Escalation.Why why, String detail) {
            escalations.add(new Escalation(job.id(), mode, to, why, detail));
            mode = to;
        }

        long memoryOn(String node) {
            return job.allocation().stream().filter(s -> s.node().equals(node)).mapToLong(NodeShare::memoryMb).sum();
        }

        long gresOn(String node, String key) {
            return job.allocation().stream().filter(s -> s.node().equals(node)).flatMap(s -> s.gres().stream())
                    .filter(g -> g.key().equals(key)).mapToLong(GresGrant::count).sum();
        }
    }
}
