package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.Verdict.Preemptable;
import dev.gantry.scheduler.preempt.Verdict.Protected;
import dev.gantry.scheduler.preempt.Verdict.Protection;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Who may preempt whom, checked in this order (the first rule that keeps a job gives the reason):
 * <ol>
 *   <li>the victim holds resources (RUNNING or SUSPENDED), is not completing, and is not the preemptor;</li>
 *   <li>PreemptType: partition_prio — the victim's partition has a lower PriorityTier; qos — the preemptor's QOS
 *       lists the victim's in Preempt=, or (WITHIN) both have the same QOS and the preemptor a higher job
 *       priority;</li>
 *   <li>the victim's PreemptMode (partition or QOS, else cluster) is not OFF; under preempt/qos, SUSPEND needs the
 *       preemptor in the victim's partition (they time-slice) or in a higher-tier one (slurm.conf PreemptType);</li>
 *   <li>exclusivity: a user-exclusive job neither preempts nor is preempted by another user's job, except that it may
 *       preempt another user's fully exclusive job (preempt.html, ExclusiveUser);</li>
 *   <li>the victim holds a node of the preemptor's partition;</li>
 *   <li>PreemptParameters=min_exempt_priority: a victim with a higher job priority is kept;</li>
 *   <li>PreemptExemptTime (REQUEUE and CANCEL): the victim has run that long since it started;</li>
 *   <li>PreemptMinActiveTime (any mode, Moab): a running victim has been active that long since it started or was
 *       last resumed;</li>
 *   <li>PreemptMaxActiveTime (Moab): a victim that has run (suspensions excluded) longer than that is kept.</li>
 * </ol>
 * Pure and stateless; times come from {@code now}.
 */
public final class VictimRules {

    private final PreemptSettings settings;

    public VictimRules(PreemptSettings settings) {
        this.settings = settings;
    }

    public Verdict judge(Contender preemptor, Contender victim, Instant now) {
        JobRecord v = victim.job();
        if (!v.state().holdsResources() || v.completing() || v.id() == preemptor.id()) {
            return kept(Protection.NOT_RUNNING, "is not running", null);
        }
        if (settings.type() == PreemptType.NONE) {
            return kept(Protection.NOT_OUTRANKED, "preemption is off (PreemptType=preempt/none)", null);
        }
        PartitionRule pp = settings.partition(preemptor.partition());
        PartitionRule vp = settings.partition(victim.partition());
        String outranked = outranked(preemptor, victim, pp, vp);
        if (outranked != null) {
            return kept(Protection.NOT_OUTRANKED, outranked, null);
        }
        PreemptMode mode = settings.modeOf(v);
        if (mode.action() == PreemptAction.OFF) {
            return kept(Protection.MODE, "its PreemptMode is OFF", null);
        }
        boolean timeSliced = false;
        if (settings.type() == PreemptType.QOS && mode.action() == PreemptAction.SUSPEND) {
            if (vp.name().equals(pp.name())) {
                timeSliced = true;
            } else if (pp.tier() <= vp.tier()) {
                return kept(Protection.MODE, "SUSPEND under preempt/qos needs the preemptor in partition "
                        + vp.name() + " or in one of a higher PriorityTier than " + vp.tier(), null);
            }
        }
        String exclusive = exclusivityConflict(preemptor, victim);
        if (exclusive != null) {
            return kept(Protection.EXCLUSIVE_USER, exclusive, null);
        }
        if (!pp.nodes().isEmpty() && !holdsAny(v, pp.nodes())) {
            return kept(Protection.NO_SHARED_NODE, "holds no node of partition " + pp.name(), null);
        }
        long minExempt = settings.parameters().minExemptPriority();
        if (minExempt >= 0 && v.priority() > minExempt) {
            return kept(Protection.PRIORITY_EXEMPT, "priority " + v.priority() + " is above PreemptParameters="
                    + "min_exempt_priority=" + minExempt, null);
        }
        Verdict timed = timeRules(v, mode.action(), now);
        return timed != null ? timed : new Preemptable(mode.action(), timeSliced);
    }

    /**
     * A cheap first test, without reason text: false when the PreemptType never lets this preemptor preempt the job
     * (tier or QOS), or the job's mode is OFF. True does not mean preemptable: {@link #judge} decides.
     */
    boolean mayOutrank(Contender preemptor, JobRecord v) {
        switch (settings.type()) {
            case NONE -> {
                return false;
            }
            case PARTITION_PRIO -> {
                if (settings.partition(v.partition()).tier() >= settings.partition(preemptor.partition()).tier()) {
                    return false;
                }
            }
            case QOS -> {
                QosRule pq = settings.qos(preemptor.job().controls().qos());
                QosRule vq = settings.qos(v.controls().qos());
                boolean within = settings.clusterMode().within() || (vq.mode() != null && vq.mode().within());
                if (!pq.preempts().contains(vq.name()) && !(within && pq.name().equals(vq.name()))) {
                    return false;
                }
            }
        }
        return settings.modeOf(v).action() != PreemptAction.OFF;
    }

    /**
     * scontrol's PreemptEligibleTime for a running or suspended job: when the time exemptions stop keeping it —
     * PreemptExemptTime from its start (when its mode is REQUEUE or CANCEL) and PreemptMinActiveTime from its start or
     * last resume (while running). Its start time when neither applies; null when it has not started.
     */
    public Instant eligibleTime(JobRecord job) {
        if (job.startTime() == null) {
            return null;
        }
        Instant at = job.startTime();
        PreemptAction mode = settings.modeOf(job).action();
        long exempt = settings.exemptSecondsOf(job);
        if (exempt > 0 && (mode == PreemptAction.REQUEUE || mode == PreemptAction.CANCEL)) {
            at = job.startTime().plusSeconds(exempt);
        }
        if (settings.minActiveSeconds() > 0 && job.state() == JobState.RUNNING) {
            Instant active = activeSince(job).plusSeconds(settings.minActiveSeconds());
            at = active.isAfter(at) ? active : at;
        }
        return at;
    }

    /** The PreemptExemptTime rule alone, for a mode the victim escalated to; null when it does not keep the job. */
    Protected exemptTime(JobRecord v, PreemptAction mode, Instant now) {
        long exempt = settings.exemptSecondsOf(v);
        if (exempt <= 0 || mode == PreemptAction.SUSPEND || v.startTime() == null) {
            return null;
        }
        long ran = seconds(v.startTime(), now);
        return ran < exempt ? kept(Protection.EXEMPT_TIME, "ran " + ran + "s of PreemptExemptTime=" + exempt + "s",
                v.startTime().plusSeconds(exempt)) : null;
    }

    private Verdict timeRules(JobRecord v, PreemptAction mode, Instant now) {
        Protected exempt = exemptTime(v, mode, now);
        if (exempt != null) {
            return exempt;
        }
        long min = settings.minActiveSeconds();
        if (min > 0 && v.state() == JobState.RUNNING) {
            Instant since = activeSince(v);
            long active = seconds(since, now);
            if (active < min) {
                return kept(Protection.MIN_ACTIVE_TIME, "active for " + active + "s since it started or resumed, "
                        + "less than PreemptMinActiveTime=" + min + "s", since.plusSeconds(min));
            }
        }
        long max = settings.maxActiveSeconds();
        if (max > 0) {
            long ran = v.runSeconds(now);
            if (ran > max) {
                return kept(Protection.MAX_ACTIVE_TIME, "has run " + ran + "s, more than PreemptMaxActiveTime="
                        + max + "s", null);
            }
        }
        return null;
    }

    private String outranked(Contender preemptor, Contender victim, PartitionRule pp, PartitionRule vp) {
        if (settings.type() == PreemptType.PARTITION_PRIO) {
            return vp.tier() < pp.tier() ? null : "partition " + vp.name() + " (PriorityTier=" + vp.tier()
                    + ") is not below partition " + pp.name() + " (PriorityTier=" + pp.tier() + ")";
        }
        QosRule pq = settings.qos(preemptor.job().controls().qos());
        QosRule vq = settings.qos(victim.job().controls().qos());
        if (pq.preempts().contains(vq.name())) {
            return null;
        }
        boolean within = settings.clusterMode().within() || (vq.mode() != null && vq.mode().within());
        if (within && pq.name().equals(vq.name())) {
            return preemptor.job().priority() > victim.job().priority() ? null : "same QOS " + vq.name()
                    + " (WITHIN) but job priority " + preemptor.job().priority() + " is not above "
                    + victim.job().priority();
        }
        return "QOS " + pq.name() + " does not list QOS " + vq.name() + " in Preempt=";
    }

    /** Null when exclusivity allows it, else why not. Jobs of one user never conflict. */
    static String exclusivityConflict(Contender preemptor, Contender victim) {
        if (preemptor.job().user().equals(victim.job().user())) {
            return null;
        }
        if (preemptor.exclusivity() == Exclusivity.USER) {
            return victim.exclusivity() == Exclusivity.NODE ? null
                    : "a user-exclusive job does not preempt other users' jobs (except fully exclusive ones)";
        }
        if (victim.exclusivity() == Exclusivity.USER) {
            return "a user-exclusive job is not preempted by other users' jobs";
        }
        return null;
    }

    private static boolean holdsAny(JobRecord v, Set<String> nodes) {
        for (NodeShare s : v.allocation()) {
            if (nodes.contains(s.node())) {
                return true;
            }
        }
        return false;
    }

    /** When it last became active: its start, or its last resume when later. */
    static Instant activeSince(JobRecord v) {
        Instant start = v.startTime();
        Instant change = v.lastStateChange();
        if (start == null) {
            return change;
        }
        return change != null && change.isAfter(start) ? change : start;
    }

    private static long seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).getSeconds());
    }

    private static Protected kept(Protection kind, String reason, Instant until) {
        return new Protected(kind, reason, until);
    }
}
