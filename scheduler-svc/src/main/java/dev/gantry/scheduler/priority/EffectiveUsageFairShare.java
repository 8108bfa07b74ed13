package dev.gantry.scheduler.priority;

/**
 * Slurm's classic fair-share algorithm (https://slurm.schedmd.com/classic_fair_share.html), with the factor's curve
 * pluggable ({@link FairShareCurve}):
 * <ul>
 *   <li>normalized usage U = raw usage / the cluster's raw usage (0 when the cluster has none; at most 1);</li>
 *   <li>effective usage: for root's children U_E = U; below them
 *       {@code U_E = U + (U_E,parent − U) · S_raw / S_all_siblings} (the parent's U_E when the siblings have no
 *       shares);</li>
 *   <li>factor = curve(U_E, normalized shares).</li>
 * </ul>
 * Root itself has U_E = 1 when there is usage (Slurm sets it so) and its factor uses S = 1.
 */
public record EffectiveUsageFairShare(FairShareCurve curve) implements FairShareAlgorithm {

    @Override
    public String name() {
        return curve.configName();
    }

    @Override
    public FairShareTable compute(AssociationTree tree, double[] rawUsage) {
        int n = tree.size();
        double total = rawUsage[0];
        double[] norm = new double[n];
        double[] effective = new double[n];
        double[] factor = new double[n];
        for (int i = 0; i < n; i++) { // parents come before children
            norm[i] = total > 0 ? Math.min(1, rawUsage[i] / total) : 0;
            effective[i] = i == 0 ? (total > 0 ? 1 : 0) : effective(tree, i, norm[i], effective[tree.parent(i)]);
            factor[i] = curve.factor(effective[i], tree.normShares(i));
        }
        return new FairShareTable(tree, this, rawUsage.clone(), norm, effective, factor);
    }

    @Override
    public double factorWith(FairShareTable table, int node, double extraUsage) {
        AssociationTree tree = table.tree();
        int depth = tree.depth(node);
        int[] path = new int[depth + 1];
        for (int n = node, d = depth; n >= 0; n = tree.parent(n), d--) {
            path[d] = n;
        }
        double total = table.totalUsage() + extraUsage;
        double parentEffective = total > 0 ? 1 : 0;
        double effective = parentEffective;
        for (int d = 1; d <= depth; d++) {
            int n = path[d];
            double norm = total > 0 ? Math.min(1, (table.rawUsage(n) + extraUsage) / total) : 0;
            effective = effective(tree, n, norm, parentEffective);
            parentEffective = effective;
        }
        return curve.factor(effective, depth == 0 ? 1 : tree.normShares(node));
    }

    @Override
    public boolean reachesZero() {
        return curve.reachesZero();
    }

    private static double effective(AssociationTree tree, int node, double norm, double parentEffective) {
        if (tree.parent(node) == 0) {
            return norm;
        }
        long siblings = tree.levelShares(node);
        return siblings == 0 ? parentEffective
                : norm + (parentEffective - norm) * ((double) tree.rawShares(node) / siblings);
    }
}
