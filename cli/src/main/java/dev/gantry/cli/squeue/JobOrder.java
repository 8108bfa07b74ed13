package dev.gantry.cli.squeue;

import dev.gantry.cli.text.NaturalOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * squeue's {@code -S} sort specification (src/squeue/sort.c): field letters, each optionally preceded by
 * '+' (ascending, the default) or '-' (descending), separated by commas or not at all. The first letter is
 * the primary key. Slurm's default is "P,t,-p": partition, then compact state, then priority, highest first.
 * Ties end on the job id, ascending, so the order is total and repeatable.
 *
 * @param keys the keys in priority order
 */
public record JobOrder(List<Key> keys) {

    /** squeue's default sort. */
    public static final String DEFAULT = "P,t,-p";

    public JobOrder {
        keys = List.copyOf(keys);
    }

    /**
     * A sort key.
     *
     * @param code the squeue field letter
     * @param descending true for '-'
     */
    public record Key(char code, boolean descending) {}

    /**
     * Parses a sort specification.
     *
     * @throws IllegalArgumentException "Invalid sort specification: X" for a letter squeue cannot sort by
     */
    public static JobOrder parse(String spec) {
        List<Key> keys = new ArrayList<>();
        boolean descending = false;
        for (char c : spec.toCharArray()) {
            switch (c) {
                case ',' -> descending = false;
                case '+' -> descending = false;
                case '-' -> descending = true;
                default -> {
                    if (comparator(c) == null) {
                        throw new IllegalArgumentException("Invalid sort specification: " + c);
                    }
                    keys.add(new Key(c, descending));
                    descending = false;
                }
            }
        }
        return new JobOrder(keys);
    }

    /** The order as a comparator of job views. */
    public Comparator<JobView> comparator() {
        Comparator<JobView> order = (a, b) -> 0;
        for (Key key : keys) {
            Comparator<JobView> c = comparator(key.code());
            order = order.thenComparing(key.descending() ? c.reversed() : c);
        }
        return order.thenComparingLong(v -> v.job().jobId());
    }

    private static Comparator<JobView> comparator(char code) {
        return switch (code) {
            case 'i', 'A' -> Comparator.comparingLong(v -> v.job().jobId());
            case 'j' -> Comparator.comparing(v -> v.job().name());
            case 'u' -> Comparator.comparing(v -> v.job().user());
            case 'U' -> Comparator.comparingLong(v -> Integer.toUnsignedLong(v.job().uid()));
            case 'G' -> Comparator.comparingLong(v -> Integer.toUnsignedLong(v.job().gid()));
            case 'P' -> Comparator.comparing(v -> v.job().partition());
            case 't' -> Comparator.comparing(v -> JobStates.compact(v.job()));
            case 'T' -> Comparator.comparing(v -> JobStates.full(v.job()));
            case 'p', 'Q' -> (a, b) -> Long.compareUnsigned(a.job().scheduling().priority(),
                    b.job().scheduling().priority());
            case 'M' -> Comparator.comparingLong(JobView::secondsUsed);
            case 'l' -> Comparator.comparingLong(v -> unlimitedLast(v.job().times().timeLimitSeconds()));
            case 'L' -> Comparator.comparingLong(JobOrder::timeLeft);
            case 'D' -> Comparator.comparingInt(v -> v.job().resources().numNodes());
            case 'C' -> Comparator.comparingInt(v -> v.job().resources().numCpus());
            case 'm' -> Comparator.comparingLong(v -> v.job().resources().memPerNodeMb());
            case 'S' -> Comparator.comparing(JobView::startForSort);
            case 'V' -> Comparator.comparingLong(v -> epochSecond(v.job().times().submit()));
            case 'e' -> Comparator.comparingLong(v -> epochSecond(v.job().times().end()));
            case 'N' -> Comparator.comparing(JobView::nodeList, NaturalOrder.INSTANCE);
            case 'B' -> Comparator.comparing(v -> v.job().resources().batchHost());
            default -> null;
        };
    }

    /** Seconds since the epoch; 0 for an unset time, as Slurm's zero time_t. */
    private static long epochSecond(Instant t) {
        return t == null ? 0 : t.getEpochSecond();
    }

    private static long unlimitedLast(long seconds) {
        return seconds < 0 ? Long.MAX_VALUE : seconds;
    }

    private static long timeLeft(JobView v) {
        long limit = v.job().times().timeLimitSeconds();
        return limit <= 0 ? Long.MAX_VALUE : limit - v.secondsUsed();
    }
}
