package dev.gantry.placement;

/**
 * A partition's OverSubscribe= (https://slurm.schedmd.com/slurm.conf.html#OPT_OverSubscribe), in the core's terms: the
 * text is parsed once, at load, by {@code common.config.OverSubscribe}, and the services map it here.
 *
 * @param kind NO, YES, FORCE or EXCLUSIVE
 * @param max  most jobs of the partition that may hold one core (or one node under select/linear): YES and FORCE
 *             default to 4, NO and EXCLUSIVE are 1
 */
public record Oversubscribe(Kind kind, int max) {

    public enum Kind { NO, YES, FORCE, EXCLUSIVE }

    public static final Oversubscribe NO = new Oversubscribe(Kind.NO, 1);

    public Oversubscribe {
        if (max < 1) {
            throw new IllegalArgumentException("OverSubscribe count must be at least 1, got " + max);
        }
    }

    /**
     * How many jobs of this partition may hold one resource unit when a job asks to share ({@code --oversubscribe})
     * or not: FORCE always shares, YES only for jobs that ask, NO and EXCLUSIVE never.
     */
    public int maxShare(boolean jobAsksToShare) {
        return switch (kind) {
            case FORCE -> max;
            case YES -> jobAsksToShare ? max : 1;
            case NO, EXCLUSIVE -> 1;
        };
    }

    /** EXCLUSIVE: every job gets whole nodes. */
    public boolean wholeNodes() {
        return kind == Kind.EXCLUSIVE;
    }

    /** Whether a job gets whole nodes here: it asked {@code --exclusive}, or the partition is EXCLUSIVE. */
    public boolean wholeNodesFor(boolean jobExclusive) {
        return jobExclusive || wholeNodes();
    }

    /** How many jobs may hold one unit a job takes here: 1 when it gets whole nodes, else {@link #maxShare}. */
    public int maxShareFor(boolean jobExclusive, boolean jobAsksToShare) {
        return wholeNodesFor(jobExclusive) ? 1 : maxShare(jobAsksToShare);
    }
}
