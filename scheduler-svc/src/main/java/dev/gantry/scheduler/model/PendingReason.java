package dev.gantry.scheduler.model;

/**
 * Slurm's pending reasons (squeue %r, scontrol Reason=) that Gantry sets, as text: each is the name of a
 * {@link dev.gantry.common.job.PendingReason}, the one type of them, until the job record holds that type.
 */
public final class PendingReason {
    private PendingReason() {}

    public static final String NONE = name(dev.gantry.common.job.PendingReason.NONE);
    public static final String PRIORITY = name(dev.gantry.common.job.PendingReason.PRIORITY);
    public static final String RESOURCES = name(dev.gantry.common.job.PendingReason.RESOURCES);
    public static final String PARTITION_NODE_LIMIT = name(dev.gantry.common.job.PendingReason.PARTITION_NODE_LIMIT);
    public static final String PARTITION_DOWN = name(dev.gantry.common.job.PendingReason.PARTITION_DOWN);
    public static final String PARTITION_INACTIVE = name(dev.gantry.common.job.PendingReason.PARTITION_INACTIVE);
    public static final String NODE_DOWN = name(dev.gantry.common.job.PendingReason.REQ_NODE_NOT_AVAIL);
    public static final String PARTITION_TIME_LIMIT = name(dev.gantry.common.job.PendingReason.PARTITION_TIME_LIMIT);
    public static final String DEPENDENCY = name(dev.gantry.common.job.PendingReason.DEPENDENCY);
    public static final String DEPENDENCY_NEVER_SATISFIED = name(dev.gantry.common.job.PendingReason.DEPENDENCY_NEVER_SATISFIED);
    public static final String BEGIN_TIME = name(dev.gantry.common.job.PendingReason.BEGIN_TIME);
    public static final String HELD_USER = name(dev.gantry.common.job.PendingReason.HELD_USER);
    public static final String HELD_ADMIN = name(dev.gantry.common.job.PendingReason.HELD_ADMIN);
    /** A victim requeued by preemption, until a pass gives it another reason (squeue PD (Preempted)). */
    public static final String PREEMPTED = name(dev.gantry.common.job.PendingReason.PREEMPTED);
    public static final String ARRAY_TASK_LIMIT = name(dev.gantry.common.job.PendingReason.ARRAY_TASK_LIMIT);
    public static final String QOS_MAX_JOBS_PER_USER = name(dev.gantry.common.job.PendingReason.QOS_MAX_JOBS_PER_USER);
    public static final String QOS_GRP_CPU = name(dev.gantry.common.job.PendingReason.QOS_GRP_CPU);
    public static final String QOS_GRP_MEM = name(dev.gantry.common.job.PendingReason.QOS_GRP_MEM);
    public static final String QOS_GRP_GRES = name(dev.gantry.common.job.PendingReason.QOS_GRP_GRES);
    public static final String QOS_MAX_CPU_PER_USER = name(dev.gantry.common.job.PendingReason.QOS_MAX_CPU_PER_USER);
    public static final String QOS_MAX_MEM_PER_USER = name(dev.gantry.common.job.PendingReason.QOS_MAX_MEM_PER_USER);
    public static final String QOS_MAX_GRES_PER_USER = name(dev.gantry.common.job.PendingReason.QOS_MAX_GRES_PER_USER);
    public static final String QOS_MAX_WALL = name(dev.gantry.common.job.PendingReason.QOS_MAX_WALL);
    public static final String ACCOUNT_NOT_ALLOWED = name(dev.gantry.common.job.PendingReason.ACCOUNT_NOT_ALLOWED);
    public static final String QOS_NOT_ALLOWED = name(dev.gantry.common.job.PendingReason.QOS_NOT_ALLOWED);

    private static String name(dev.gantry.common.job.PendingReason r) {
        return r.slurmName();
    }
}
