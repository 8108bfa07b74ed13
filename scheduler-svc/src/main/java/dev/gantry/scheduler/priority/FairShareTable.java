package dev.gantry.scheduler.priority;

/**
 * The fair-share state of every association at one time, as sshare shows it: raw usage (decayed billing-seconds),
 * normalized usage (raw over the cluster's total, at most 1), effective usage and the factor. Indexed by
 * {@link AssociationTree} node. Immutable; recomputed every PriorityCalcPeriod.
 */
public final class FairShareTable {

    private final AssociationTree tree;
    private final FairShareAlgorithm algorithm;
    private final double[] rawUsage;
    private final double[] normUsage;
    private final double[] effectiveUsage;
    private final double[] factor;

    /** Arrays are owned by the table from here on (callers pass fresh ones). */
    public FairShareTable(AssociationTree tree, FairShareAlgorithm algorithm, double[] rawUsage, double[] normUsage,
            double[] effectiveUsage, double[] factor) {
        this.tree = tree;
        this.algorithm = algorithm;
        this.rawUsage = rawUsage;
        this.normUsage = normUsage;
        this.effectiveUsage = effectiveUsage;
        this.factor = factor;
    }

    public AssociationTree tree() {
        return tree;
    }

    public FairShareAlgorithm algorithm() {
        return algorithm;
    }

    /** The factor a job charging this account as this user gets (see {@link AssociationTree#nodeFor}). */
    public double factor(String account, String user) {
        return factor[tree.nodeFor(account, user)];
    }

    public double factor(int node) {
        return factor[node];
    }

    public double rawUsage(int node) {
        return rawUsage[node];
    }

    public double normUsage(int node) {
        return normUsage[node];
    }

    public double effectiveUsage(int node) {
        return effectiveUsage[node];
    }

    /** The cluster's total decayed billing-seconds (root's raw usage). */
    public double totalUsage() {
        return rawUsage[0];
    }
}
