package dev.gantry.common.job;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Why a pending job does not start now, by the name Slurm gives it in squeue's REASON column and scontrol's Reason=
 * (https://slurm.schedmd.com/job_reason_codes.html): the reasons Gantry gives, one type for the service that decides
 * most of them (scheduler-svc) and the one that decides placement (select-svc). {@link #slurmName()} is the text the
 * commands show, the API carries and the controller stores; a name is never changed. Why a job ended is not a pending
 * reason but its end note (scheduler-svc's {@code JobRecord.endNote}).
 */
public enum PendingReason {
    /** No reason: eligible and not yet looked at, or not pending. */
    NONE("None"),
    /** A job ahead of it in the same partition could not start (the main pass stops at the first blocked job). */
    PRIORITY("Priority"),
    /** Not enough free resources in any of its partitions. */
    RESOURCES("Resources"),
    /** It asks for more nodes than its partitions' MaxNodes. */
    PARTITION_NODE_LIMIT("PartitionNodeLimit"),
    /** Its partitions do not start jobs now (DOWN). */
    PARTITION_DOWN("PartitionDown"),
    /** Its partitions are INACTIVE. */
    PARTITION_INACTIVE("PartitionInactive"),
    /** It fits no partition's limits, or its partitions are not in select-svc's replica (not replicated yet). */
    PARTITION_CONFIG("PartitionConfig"),
    /** A node it requires is not available. */
    REQ_NODE_NOT_AVAIL("ReqNodeNotAvail"),
    /** Its time limit is over its partitions' MaxTime. */
    PARTITION_TIME_LIMIT("PartitionTimeLimit"),
    /** It waits for a dependency. */
    DEPENDENCY("Dependency"),
    /** A dependency can never be satisfied; it stays pending until changed or cancelled. */
    DEPENDENCY_NEVER_SATISFIED("DependencyNeverSatisfied"),
    /** Its begin time (--begin) is ahead. */
    BEGIN_TIME("BeginTime"),
    /** Held by its user (or requeued with a hold). */
    HELD_USER("JobHeldUser"),
    /** Held by an administrator, or given Priority=0 by one. */
    HELD_ADMIN("JobHeldAdmin"),
    /** A victim requeued by preemption, until a pass gives it another reason (squeue PD (Preempted)). */
    PREEMPTED("Preempted"),
    /**
     * Gantry's own: it could preempt, but only more victims than PreemptMaxVictims allows (Slurm has no such reason;
     * the name is the parameter's).
     */
    PREEMPT_MAX_VICTIMS("PreemptMaxVictims"),
    /** Its array's %n throttle: as many of its tasks run as may. */
    ARRAY_TASK_LIMIT("JobArrayTaskLimit"),
    QOS_MAX_JOBS_PER_USER("QOSMaxJobsPerUserLimit"),
    QOS_GRP_CPU("QOSGrpCpuLimit"),
    QOS_GRP_MEM("QOSGrpMemLimit"),
    QOS_GRP_GRES("QOSGrpGRES"),
    QOS_MAX_CPU_PER_USER("QOSMaxCpuPerUserLimit"),
    QOS_MAX_MEM_PER_USER("QOSMaxMemoryPerUser"),
    QOS_MAX_GRES_PER_USER("QOSMaxGRESPerUser"),
    QOS_MAX_WALL("QOSMaxWallDurationPerJobLimit"),
    ACCOUNT_NOT_ALLOWED("AccountNotAllowed"),
    QOS_NOT_ALLOWED("QOSNotAllowed");

    private static final Map<String, PendingReason> BY_NAME = new HashMap<>();

    static {
        for (PendingReason r : values()) {
            BY_NAME.put(r.slurmName, r);
        }
    }

    private final String slurmName;

    PendingReason(String slurmName) {
        this.slurmName = slurmName;
    }

    /** The name squeue and scontrol show. */
    public String slurmName() {
        return slurmName;
    }

    /** The reason named exactly {@code name} (case matters, as in Slurm's output); empty for any other text. */
    public static Optional<PendingReason> ofSlurmName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
