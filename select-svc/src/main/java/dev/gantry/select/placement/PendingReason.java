package dev.gantry.select.placement;

/**
 * Why a job cannot start now, as Slurm names it in squeue's REASON column
 * (https://slurm.schedmd.com/job_reason_codes.html).
 */
public enum PendingReason {
    /** Not enough free resources in any of its partitions. */
    RESOURCES("Resources"),
    /** A job ahead of it in the same partition could not start (main-pass semantics). */
    PRIORITY("Priority"),
    /** Its partitions are DOWN. */
    PARTITION_DOWN("PartitionDown"),
    /** Its partitions are INACTIVE. */
    PARTITION_INACTIVE("PartitionInactive"),
    /** Its partitions are not in the replica (not configured, or not replicated yet). */
    PARTITION_CONFIG("PartitionConfig");

    private final String slurmName;

    PendingReason(String slurmName) {
        this.slurmName = slurmName;
    }

    /** The name squeue shows. */
    public String slurmName() {
        return slurmName;
    }
}
