package dev.gantry.scheduler.model;

/** Slurm's pending reasons (squeue %r, scontrol Reason=) that Gantry sets. */
public final class PendingReason {
    private PendingReason() {}

    public static final String NONE = "None";
    public static final String PRIORITY = "Priority";
    public static final String RESOURCES = "Resources";
    public static final String PARTITION_NODE_LIMIT = "PartitionNodeLimit";
    public static final String PARTITION_DOWN = "PartitionDown";
    public static final String PARTITION_INACTIVE = "PartitionInactive";
    public static final String NODE_DOWN = "ReqNodeNotAvail";
}
