package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptAction;
import java.time.Instant;

/** Whether one running job may be preempted for one pending job, and how; or why not. */
public sealed interface Verdict {

    /**
     * It may be preempted.
     *
     * @param mode the configured mechanism (before any escalation)
     * @param timeSliced preempt/qos with SUSPEND in the preemptor's own partition: gang-svc time-slices the two
     *     instead of keeping the victim suspended until the preemptor ends
     */
    record Preemptable(PreemptAction mode, boolean timeSliced) implements Verdict {}

    /**
     * It may not be preempted.
     *
     * @param kind the rule that keeps it (a metric label)
     * @param reason for people, e.g. "ran 120s of PreemptExemptTime=600s"
     * @param until when this protection ends (scontrol's PreemptEligibleTime), or null when it does not end by itself
     */
    record Protected(Protection kind, String reason, Instant until) implements Verdict {}

    /** Why a running job is kept. */
    enum Protection {
        /** It does not hold resources, is completing, or is the preemptor. */
        NOT_RUNNING,
        /** PreemptType: the preemptor's partition tier or QOS does not outrank it. */
        NOT_OUTRANKED,
        /** Its PreemptMode is OFF, or SUSPEND under preempt/qos from a lower-tier partition. */
        MODE,
        /** ExclusiveUser / --exclusive=user against another user's job. */
        EXCLUSIVE_USER,
        /** It holds no node of the preemptor's partition. */
        NO_SHARED_NODE,
        /** PreemptParameters=min_exempt_priority. */
        PRIORITY_EXEMPT,
        /** PreemptExemptTime (REQUEUE and CANCEL). */
        EXEMPT_TIME,
        /** PreemptMinActiveTime. */
        MIN_ACTIVE_TIME,
        /** PreemptMaxActiveTime. */
        MAX_ACTIVE_TIME
    }
}
