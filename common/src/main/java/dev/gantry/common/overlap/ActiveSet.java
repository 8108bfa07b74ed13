package dev.gantry.common.overlap;

/**
 * The resources held by the jobs running in one partition (Slurm's "active bitmap"), plus the shadows cast on it.
 * Made empty by {@link OverlapRule#emptySet}, filled during one rebuild, then dropped. Not thread-safe.
 */
public interface ActiveSet {

    /** Whether {@code job} can run beside everything added so far. */
    boolean fits(Holding job);

    /** Adds {@code job}'s resources (a shadow may overcommit them; nothing then fits there). */
    void add(Holding job);
}
