package dev.gantry.common.config;

import java.util.Locale;

/**
 * A partition's OverSubscribe= (https://slurm.schedmd.com/slurm.conf.html#OPT_OverSubscribe): NO, EXCLUSIVE, YES[:n]
 * or FORCE[:n], parsed once at load. Shared= is its older name. The one type for it: scheduler-svc checks placements
 * with it and select-svc receives it in the event stream's partitions; both give the placement core what it allows
 * ({@link #wholeNodes}, {@link #maxShare}) for {@code placement.Sharing}.
 *
 * @param kind NO, EXCLUSIVE, YES or FORCE
 * @param jobs how many jobs may hold one resource together: n of YES:n and FORCE:n (Slurm's default 4), 1 for NO and
 *     EXCLUSIVE
 * @param countGiven whether the value named its count (YES:4 rather than YES), to print it as written
 */
public record OverSubscribe(Kind kind, int jobs, boolean countGiven) {

    /** The four OverSubscribe words. */
    public enum Kind { NO, EXCLUSIVE, YES, FORCE }

    /** The most jobs YES:n and FORCE:n may name (slurm.conf(5)). */
    public static final int MAX_JOBS = 32767;

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
     * Parses NO, EXCLUSIVE, YES[:n], FORCE[:n], any case, with 1 &lt;= n &lt;= 32767 as Slurm documents.
     *
     * @throws IllegalArgumentException saying what is wrong (without the key; the config parser adds file, line, key)
     */
    public static OverSubscribe parse(String raw) {
        String v = raw.trim().toUpperCase(Locale.ROOT);
        int colon = v.indexOf(':');
        String word = colon < 0 ? v : v.substring(0, colon);
        Kind kind;
        try {
            kind = Kind.valueOf(word);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + raw + "' is not one of NO, EXCLUSIVE, YES[:n], FORCE[:n]");
        }
        if (colon < 0) {
            return new OverSubscribe(kind, kind == Kind.YES || kind == Kind.FORCE ? 4 : 1, false);
        }
        if (kind != Kind.YES && kind != Kind.FORCE) {
            throw new IllegalArgumentException("'" + raw + "': only YES and FORCE take a job count");
        }
        return new OverSubscribe(kind, Values.intRange(1, MAX_JOBS).apply(raw.trim().substring(colon + 1)), true);
    }

    /**
     * How many jobs may hold one CPU (core) together: FORCE's count always, YES's only for a job that asks to share
     * ({@code --oversubscribe}), else 1.
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

    /** As written in slurm.conf, upper case: NO, EXCLUSIVE, YES, FORCE:2. */
    @Override
    public String toString() {
        return countGiven ? kind + ":" + jobs : kind.name();
    }
}
