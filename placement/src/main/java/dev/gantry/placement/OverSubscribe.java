package dev.gantry.placement;

/**
 * A partition's OverSubscribe= (https://slurm.schedmd.com/slurm.conf.html#OPT_OverSubscribe): NO, EXCLUSIVE, YES[:n]
 * or FORCE[:n]; Shared= is its older name. The config's text is parsed once, at load, by {@code common.config}
 * (PartitionName= lines); scheduler-svc checks placements with the value and sends it to select-svc in the event
 * stream's partitions, where it comes back as {@link #OverSubscribe(Kind, int)}.
 *
 * @param kind NO, EXCLUSIVE, YES or FORCE
 * @param jobs how many jobs of the partition may hold one resource unit (a core, or a node under select/linear)
 *     together: n of YES:n and FORCE:n (Slurm's default 4), 1 for NO and EXCLUSIVE
 * @param countGiven whether the value named its count (YES:4 rather than YES), to print it as written
 */
public record OverSubscribe(Kind kind, int jobs, boolean countGiven) {

    /** The four OverSubscribe words. */
    public enum Kind { NO, EXCLUSIVE, YES, FORCE }

    /** The most jobs YES:n and FORCE:n may name (slurm.conf(5)). */
    public static final int MAX_JOBS = 32767;

    /** Slurm's default count of YES and FORCE written without one. */
    public static final int DEFAULT_JOBS = 4;

    public static final OverSubscribe NO = new OverSubscribe(Kind.NO, 1, false);

    public OverSubscribe {
        if (jobs < 1 || jobs > MAX_JOBS) {
            throw new IllegalArgumentException("OverSubscribe job count " + jobs + " is out of range 1.." + MAX_JOBS);
        }
    }

    /** A setting known by its kind and count only (as the event stream carries it): YES and FORCE print their count. */
    public OverSubscribe(Kind kind, int jobs) {
        this(kind, jobs, kind == Kind.YES || kind == Kind.FORCE);
    }

    /**
     * How many jobs of this partition may hold one resource unit when a job asks to share ({@code --oversubscribe}) or
     * not: FORCE's count always, YES's only for a job that asks, else 1.
     */
    public int maxShare(boolean jobAsksToShare) {
        return switch (kind) {
            case FORCE -> jobs;
            case YES -> jobAsksToShare ? jobs : 1;
            case NO, EXCLUSIVE -> 1;
        };
    }

    /** EXCLUSIVE: every job of the partition gets whole nodes. */
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

    /** As written in slurm.conf, upper case: NO, EXCLUSIVE, YES, FORCE:2. */
    @Override
    public String toString() {
        return countGiven ? kind + ":" + jobs : kind.name();
    }
}
