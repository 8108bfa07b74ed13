package dev.gantry.cli.model;

import java.util.Map;

/**
 * One sshare row (Slurm's assoc_shares_object_t): an account, or a user within an account.
 *
 * @param account the account
 * @param user the user; "" on an account's row
 * @param depth the depth in the account tree, 0 for root; sshare indents by it
 * @param rawShares RawShares
 * @param normShares NormShares
 * @param rawUsage decayed billing-seconds
 * @param normUsage NormUsage
 * @param effectiveUsage EffectvUsage
 * @param fairshare the fair-share factor
 * @param tresRawUsage decayed usage in seconds per TRES
 * @param usageToHalve more usage that would halve the factor
 * @param usageToZero more usage that would make it 0
 */
public record ShareInfo(String account, String user, int depth, long rawShares, double normShares, double rawUsage,
                       double normUsage, double effectiveUsage, double fairshare, Map<String, Double> tresRawUsage,
                       UsageInfo usageToHalve, UsageInfo usageToZero) {

    public ShareInfo {
        tresRawUsage = Map.copyOf(tresRawUsage);
    }
}
