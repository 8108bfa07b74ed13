package dev.gantry.scheduler.priority;

/**
 * How fair-share factors follow from the association tree and its usage. Slurm's classic effective-usage algorithm
 * ({@link EffectiveUsageFairShare}) with either curve is what Gantry has; Fair Tree can be another implementation.
 * Implementations are pure and stateless.
 */
public interface FairShareAlgorithm {

    /** The name sshare reports for it (e.g. classic, linear). */
    String name();

    /**
     * The table for raw usage per node (as {@link UsageLedger#usageByNode}: accounts hold their sub-tree's sum, root
     * the cluster's total).
     */
    FairShareTable compute(AssociationTree tree, double[] rawUsage);

    /**
     * The factor {@code node} would have if {@code extraUsage} more billing-seconds were charged to it now (and so to
     * its ancestors and the cluster's total), every other usage as in {@code table}.
     */
    double factorWith(FairShareTable table, int node, double extraUsage);

    /** Whether some finite usage gives a factor of 0. */
    boolean reachesZero();
}
