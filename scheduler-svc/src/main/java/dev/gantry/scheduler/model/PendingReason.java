package dev.gantry.scheduler.model;

/**
 * The names of three pending reasons as text, for the passes that still compare and pass reasons as strings.
 *
 * @deprecated the pending reason is {@link dev.gantry.common.job.PendingReason}; this goes once SchedulingLoop and
 *     BackfillPass use it (each constant is that enum's {@code slurmName()})
 */
@Deprecated
public final class PendingReason {
    private PendingReason() {}

    public static final String NONE = dev.gantry.common.job.PendingReason.NONE.slurmName();
    public static final String PRIORITY = dev.gantry.common.job.PendingReason.PRIORITY.slurmName();
    public static final String RESOURCES = dev.gantry.common.job.PendingReason.RESOURCES.slurmName();
}
