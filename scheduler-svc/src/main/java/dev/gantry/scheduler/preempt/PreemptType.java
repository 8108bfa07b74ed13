package dev.gantry.scheduler.preempt;

/** PreemptType: how it is decided which jobs may preempt which (slurm.conf(5)). */
public enum PreemptType {
    /** preempt/none: no preemption. */
    NONE,
    /** preempt/partition_prio: a job of a higher-PriorityTier partition preempts jobs of lower-tier partitions. */
    PARTITION_PRIO,
    /** preempt/qos: a job whose QOS lists the victim's QOS in Preempt= preempts it. */
    QOS;

    /** From the config value (preempt/none, preempt/partition_prio, preempt/qos; any case). */
    public static PreemptType parse(String raw) {
        return switch (raw.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "preempt/none" -> NONE;
            case "preempt/partition_prio" -> PARTITION_PRIO;
            case "preempt/qos" -> QOS;
            default -> throw new IllegalArgumentException(
                    "PreemptType=" + raw + ": not one of preempt/none, preempt/partition_prio, preempt/qos");
        };
    }

    /** As written in slurm.conf. */
    public String configName() {
        return switch (this) {
            case NONE -> "preempt/none";
            case PARTITION_PRIO -> "preempt/partition_prio";
            case QOS -> "preempt/qos";
        };
    }
}
