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

    /** @param linear SelectType=select/linear: the unit is the node already */
    public static Sharing of(OverSubscribe partition, boolean jobExclusive, boolean jobAsksToShare, boolean linear) {
        return new Sharing(partition.wholeNodesFor(jobExclusive) && !linear,
                partition.maxShareFor(jobExclusive, jobAsksToShare));
    }
}
