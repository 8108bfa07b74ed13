package dev.gantry.placement;

/**
 * How a job shares the nodes it gets, from its partition's OverSubscribe= and its own {@code --exclusive} and
 * {@code --oversubscribe} (https://slurm.schedmd.com/slurm.conf.html#OPT_OverSubscribe).
 *
 * @param wholeNode the job gets whole nodes (--exclusive, OverSubscribe=EXCLUSIVE; under select/linear every job does,
 *                  by its unit, and this stays false)
 * @param maxShare  how many jobs of its partition may hold one unit with it (1 = none)
 */
public record Sharing(boolean wholeNode, int maxShare) {

    /**
     * @param partitionWholeNodes OverSubscribe=EXCLUSIVE: every job of the partition gets whole nodes
     * @param partitionShare      how many jobs of the partition its OverSubscribe= lets hold one unit with this job
     *                            (FORCE:n always, YES:n when the job asks {@code --oversubscribe}, else 1)
     * @param linear              SelectType=select/linear: the unit is the node already
     */
    public static Sharing of(boolean partitionWholeNodes, int partitionShare, boolean jobExclusive, boolean linear) {
        boolean whole = jobExclusive || partitionWholeNodes;
        return new Sharing(whole && !linear, whole ? 1 : partitionShare);
    }
}
