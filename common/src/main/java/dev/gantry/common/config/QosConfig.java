package dev.gantry.common.config;

import java.util.List;

/**
 * A QOS from a {@code QOS=} line (Slurm keeps these in its database; Gantry reads them from the config, see
 * https://slurm.schedmd.com/sacctmgr.html#SECTION_SPECIFICATIONS-FOR-QOS). Unset limits are {@link #UNLIMITED} (-1);
 * unset TRES limits are {@link TresLimits#UNLIMITED}. Times are seconds.
 *
 * @param priority the QOS priority (the QOS factor is it divided by the highest QOS priority)
 * @param preempt the QOS whose jobs this one may preempt
 * @param preemptMode the QOS's own PreemptMode, parsed at load; null when it has none (the cluster's applies)
 * @param graceTimeSeconds seconds a preempted job gets before it is cancelled or requeued
 * @param preemptExemptTimeSeconds a job of this QOS is not preempted before it ran this long; -1 = not set (the global
 *     PreemptExemptTime applies)
 * @param maxWallSeconds the longest time limit a job of this QOS may have; -1 = unlimited
 * @param maxJobsPerUser running jobs per user; -1 = unlimited
 * @param maxSubmitJobsPerUser pending plus running jobs per user; -1 = unlimited
 * @param grpTres what all running jobs of this QOS may hold together
 * @param maxTresPerUser what one user's running jobs of this QOS may hold together
 * @param usageFactor multiplies the fair-share usage charged to jobs of this QOS (default 1.0; 0 = free)
 * @param flags Slurm QOS flags in their canonical spelling (e.g. DenyOnLimit, NoDecay)
 * @param line the config line, 0 for the implicit {@code normal} QOS
 */
public record QosConfig(String name, int priority, List<String> preempt, PreemptMode preemptMode, long graceTimeSeconds,
        long preemptExemptTimeSeconds, long maxWallSeconds, int maxJobsPerUser, int maxSubmitJobsPerUser,
        TresLimits grpTres, TresLimits maxTresPerUser, double usageFactor, List<String> flags, String description,
        int line) {

    /** The value of an unset limit. */
    public static final int UNLIMITED = -1;

    /** Slurm's default QOS, which exists unless a {@code QOS=normal} line replaces it. */
    public static final QosConfig NORMAL = new QosConfig("normal", 0, List.of(), null, 0, UNLIMITED, UNLIMITED, UNLIMITED,
            UNLIMITED, TresLimits.UNLIMITED, TresLimits.UNLIMITED, 1.0, List.of(), "Normal QOS default", 0);

    public QosConfig {
        preempt = List.copyOf(preempt);
        flags = List.copyOf(flags);
    }

    public boolean hasFlag(String flag) {
        return flags.stream().anyMatch(f -> f.equalsIgnoreCase(flag));
    }
}
