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
    public static final String PARTITION_TIME_LIMIT = "PartitionTimeLimit";
    public static final String DEPENDENCY = "Dependency";
    public static final String DEPENDENCY_NEVER_SATISFIED = "DependencyNeverSatisfied";
    public static final String BEGIN_TIME = "BeginTime";
    public static final String HELD_USER = "JobHeldUser";
    public static final String HELD_ADMIN = "JobHeldAdmin";
    /** A victim requeued by preemption, until a pass gives it another reason (squeue PD (Preempted)). */
    public static final String PREEMPTED = "Preempted";
    public static final String ARRAY_TASK_LIMIT = "JobArrayTaskLimit";
    public static final String QOS_MAX_JOBS_PER_USER = "QOSMaxJobsPerUserLimit";
    public static final String QOS_GRP_CPU = "QOSGrpCpuLimit";
    public static final String QOS_GRP_MEM = "QOSGrpMemLimit";
    public static final String QOS_GRP_GRES = "QOSGrpGRES";
    public static final String QOS_MAX_CPU_PER_USER = "QOSMaxCpuPerUserLimit";
    public static final String QOS_MAX_MEM_PER_USER = "QOSMaxMemoryPerUser";
    public static final String QOS_MAX_GRES_PER_USER = "QOSMaxGRESPerUser";
    public static final String QOS_MAX_WALL = "QOSMaxWallDurationPerJobLimit";
    public static final String ACCOUNT_NOT_ALLOWED = "AccountNotAllowed";
    public static final String QOS_NOT_ALLOWED = "QOSNotAllowed";
}
