package dev.gantry.scheduler.preempt;

/** How a job shares its nodes, as far as preemption cares. */
public enum Exclusivity {
    /** Shares nodes with any job. */
    SHARED,
    /** --exclusive=user or an ExclusiveUser=YES partition: shares nodes only with its user's jobs. */
    USER,
    /** --exclusive or OverSubscribe=EXCLUSIVE: shares its nodes with no job. */
    NODE
}
