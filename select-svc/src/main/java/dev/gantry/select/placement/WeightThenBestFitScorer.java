package dev.gantry.select.placement;

import java.util.Comparator;

/**
 * Prefers, in this order:
 * <ol>
 *   <li>lower Weight: Slurm allocates the lowest-weight nodes that satisfy a job first, so an admin can keep
 *       big or special nodes for last (https://slurm.schedmd.com/slurm.conf.html#OPT_Weight);</li>
 *   <li>best fit: fewest free CPUs that still fit, so larger holes stay open for larger jobs;</li>
 *   <li>node order in the replica (config order), the stable tie-break.</li>
 * </ol>
 */
public final class WeightThenBestFitScorer implements NodeScorer {

    private static final Comparator<NodeCandidate> ORDER =
            Comparator.<NodeCandidate>comparingInt(candidate -> candidate.node().weight())
                    .thenComparingLong(NodeCandidate::freeCpus)
                    .thenComparingInt(NodeCandidate::index);

    @Override
    public Comparator<NodeCandidate> preference(NodeDemand demand) {
        return ORDER;
    }
}
