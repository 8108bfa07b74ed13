package dev.gantry.common.config;

/** What happens to a preempted job (the mechanism part of PreemptMode). */
public enum PreemptAction {
    /** Not preempted. */
    OFF,
    /** Killed; it ends PREEMPTED. */
    CANCEL,
    /** Killed and returned to PENDING with the same id and one more restart. */
    REQUEUE,
    /** Stopped in place, its memory kept, and resumed when the preemptor ends. */
    SUSPEND
}
