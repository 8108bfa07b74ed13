package dev.gantry.scheduler.control;

/** Where a dependency (or one term of it) stands. */
public enum DependencyStatus {
    /** It holds: the job may be scheduled (as far as its dependency goes). */
    SATISFIED,
    /** It may still hold: pending reason Dependency. */
    WAITING,
    /** It can never hold: pending reason DependencyNeverSatisfied (the job stays pending until changed or cancelled). */
    NEVER
}
