package dev.gantry.scheduler.priority;

import java.util.Map;

/**
 * One row of {@code sshare -l} (https://slurm.schedmd.com/sshare.html): an account ({@code user} empty) or a user
 * within an account, with the field values the CLI formats.
 *
 * @param depth 0 for root; sshare indents accounts by it
 * @param rawShares Fairshare= of the association
 * @param normShares its fraction of the cluster
 * @param rawUsage decayed billing-seconds (Slurm's RawUsage)
 * @param normUsage raw usage over the cluster's (NormUsage)
 * @param effectiveUsage EffectvUsage
 * @param fairShare the factor (FairShare)
 * @param tresRawUsage decayed TRES-seconds by TRES name (cpu, mem in MiB-seconds, gres/gpu)
 * @param toHalve more usage that would halve the factor
 * @param toZero more usage that would make it 0 (never for the classic form)
 */
public record ShareRow(String account, String user, int depth, long rawShares, double normShares, double rawUsage,
        double normUsage, double effectiveUsage, double fairShare, Map<String, Double> tresRawUsage,
        UsageAmount toHalve, UsageAmount toZero) {

    public ShareRow {
        tresRawUsage = Map.copyOf(tresRawUsage);
    }
}
