package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptAction;

/**
 * A victim's mode raised because the configured one is impossible (Moab: SUSPEND → REQUEUE → CANCEL). A victim that
 * can neither be suspended nor requeued has two: SUSPEND → REQUEUE and REQUEUE → CANCEL.
 *
 * @param detail for people, e.g. "node n1: 6144 MiB held + 4096 MiB for the preemptor > 8192 MiB"
 */
public record Escalation(long victimId, PreemptAction from, PreemptAction to, Why why, String detail) {

    /** Why the mode was impossible (a metric label). */
    public enum Why {
        /** Suspended, its memory would not fit beside the preemptor on a node they share. */
        MEMORY,
        /** Suspended, the GRES it keeps (GPUs…) would leave too few for the preemptor on a node they share. */
        GRES,
        /** It may not be requeued (--no-requeue, or JobRequeue=0). */
        NOT_REQUEUEABLE
    }
}
