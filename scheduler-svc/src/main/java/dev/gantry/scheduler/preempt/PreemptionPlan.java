package dev.gantry.scheduler.preempt;

import java.util.List;

/** The decision for one preemptor once select-svc has named its victims: go, with what to do to each, or wait. */
public sealed interface PreemptionPlan {

    long preemptorId();

    /**
     * Preempt these victims (in select-svc's order), then start the preemptor.
     *
     * @param escalations every mode raised, in victim order, for the lead to record on the jobs and count
     */
    record Go(long preemptorId, List<VictimPlan> victims, List<Escalation> escalations) implements PreemptionPlan {
        public Go {
            victims = List.copyOf(victims);
            escalations = List.copyOf(escalations);
        }
    }

    /**
     * Preempt nothing; the preemptor waits.
     *
     * @param why a metric label
     * @param reason for people, e.g. "needs 40 victims, more than PreemptMaxVictims=32"
     */
    record Refused(long preemptorId, Why why, String reason) implements PreemptionPlan {}

    /** Why a plan was refused. */
    enum Why {
        /** More victims than PreemptMaxVictims. */
        TOO_MANY_VICTIMS,
        /** A victim is gone or may no longer be preempted (the plan is stale, or select-svc named a non-candidate). */
        VICTIM_PROTECTED,
        /** A victim cannot be suspended and is exempt from REQUEUE and CANCEL (PreemptExemptTime). */
        ESCALATION_EXEMPT,
        /** The preemptor's memory does not fit on a node even with every victim there requeued or cancelled. */
        MEMORY,
        /** The preemptor's GRES are not free on a node even with every victim there requeued or cancelled. */
        GRES
    }
}
