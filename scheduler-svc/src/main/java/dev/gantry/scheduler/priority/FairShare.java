package dev.gantry.scheduler.priority;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.QosConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fair share for the controller: the association tree and algorithm from the config (FairShareType, Account= and
 * User= lines, TRESBillingWeights, QOS UsageFactor), and the decayed usage ledger (PriorityDecayHalfLife).
 *
 * <p>Use from the controller thread (not thread-safe, no locking):
 * <ul>
 *   <li>{@link #charge} each running job's allocation for the time since its last charge, every PriorityCalcPeriod
 *       and once more when it ends;</li>
 *   <li>{@link #table} every PriorityCalcPeriod (or on demand) for the factors {@link MultifactorPriority} uses;</li>
 *   <li>{@link #shares} for sshare; {@link #snapshot} to persist, {@link #of(ClusterConfig, UsageSnapshot)} to
 *       restore.</li>
 * </ul>
 */
public final class FairShare {

    private final AssociationTree tree;
    private final FairShareAlgorithm algorithm;
    private final TresBilling billing;
    private final Map<String, Double> usageFactors;
    private final UsageLedger ledger;

    private FairShare(ClusterConfig config, UsageLedger ledger) {
        this.tree = AssociationTree.of(config.accounting());
        this.algorithm = new EffectiveUsageFairShare(FairShareCurve.of(config.get(Keys.FAIR_SHARE_TYPE)));
        this.billing = TresBilling.of(config);
        this.usageFactors = new LinkedHashMap<>();
        for (QosConfig q : config.qos()) {
            usageFactors.put(q.name(), q.usageFactor());
        }
        this.ledger = ledger;
    }

    /** Fair share with no usage yet. */
    public static FairShare of(ClusterConfig config) {
        return new FairShare(config, new UsageLedger(config.get(Keys.PRIORITY_DECAY_HALF_LIFE)));
    }

    /** Fair share with persisted usage, which decays from the snapshot's time on. */
    public static FairShare of(ClusterConfig config, UsageSnapshot usage) {
        return new FairShare(config, UsageLedger.restore(usage, config.get(Keys.PRIORITY_DECAY_HALF_LIFE)));
    }

    /** The same usage under a new config (accounts, shares, weights or half-life changed), as of {@code now}. */
    public FairShare reconfigured(ClusterConfig config, Instant now) {
        return of(config, ledger.snapshot(now));
    }

    /**
     * Charges an allocation held for {@code seconds} (ending at {@code at}) to a user's association: billing from
     * TRESBillingWeights, times the QOS's UsageFactor (1 for an unknown QOS).
     */
    public void charge(String account, String user, String qos, TresAmount allocated, double seconds, Instant at) {
        UsageCharge c = billing.charge(allocated, seconds, usageFactors.getOrDefault(qos, 1.0));
        ledger.charge(Association.of(account, user), c, at);
    }

    /** Charges billing-seconds (already weighted and multiplied by UsageFactor) to a user's association. */
    public void charge(String account, String user, double billingSeconds, Instant at) {
        ledger.charge(account, user, billingSeconds, at);
    }

    /** Every association's factor and usage at {@code now}. */
    public FairShareTable table(Instant now) {
        return algorithm.compute(tree, ledger.usageByNode(tree, now));
    }

    /** The rows of {@code sshare -l} at {@code now}, in tree order (an account, its users, its sub-accounts). */
    public List<ShareRow> shares(Instant now) {
        FairShareTable table = table(now);
        Map<String, double[]> tres = new LinkedHashMap<>();
        for (String name : List.of("cpu", "mem", "node", "gres/gpu")) {
            tres.put(name, ledger.byNode(tree, name, now));
        }
        List<ShareRow> rows = new ArrayList<>(tree.size());
        for (int n = 0; n < tree.size(); n++) {
            Association a = tree.association(n);
            Map<String, Double> tresUsage = new LinkedHashMap<>();
            for (Map.Entry<String, double[]> e : tres.entrySet()) {
                if (e.getValue()[n] != 0) {
                    tresUsage.put(e.getKey(), e.getValue()[n]);
                }
            }
            UsageHeadroom headroom = UsageHeadroom.of(table, n, billing);
            rows.add(new ShareRow(a.account(), a.user(), tree.depth(n), tree.rawShares(n), tree.normShares(n),
                    table.rawUsage(n), table.normUsage(n), table.effectiveUsage(n), table.factor(n), tresUsage,
                    headroom.toHalve(), headroom.toZero()));
        }
        return rows;
    }

    /** The usage to persist. */
    public UsageSnapshot snapshot(Instant now) {
        return ledger.snapshot(now);
    }

    public AssociationTree tree() {
        return tree;
    }

    public FairShareAlgorithm algorithm() {
        return algorithm;
    }

    public TresBilling billing() {
        return billing;
    }

    public UsageLedger ledger() {
        return ledger;
    }
}
