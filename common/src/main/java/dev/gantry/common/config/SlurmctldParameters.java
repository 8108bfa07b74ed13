package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.List;

/**
 * SlurmctldParameters= (slurm.conf(5)): the controller's request limits, parsed once at load. Options Gantry has no use
 * for are kept in {@link #others} and ignored; the config parser warns about each with its line.
 *
 * @param rateLimit the per-user request rate limit (Slurm's rl_* options)
 * @param watch caps on the client API's server-streaming calls (Gantry's watch_* options)
 * @param others every other option, as written
 */
public record SlurmctldParameters(RateLimit rateLimit, WatchLimits watch, List<String> others) implements SubOptions {

    /**
     * Slurm's RPC rate limit (slurm.conf(5) SlurmctldParameters, Slurm 23.02 and later): a token bucket per user of
     * {@code bucketSize} tokens, each request taking one, refilled by {@code refillRate} tokens every
     * {@code refillPeriodSeconds}; at most {@code tableSize} users are tracked at once. Root and SlurmUser are never
     * limited.
     *
     * <p>Slurm limits nothing unless {@code rl_enable} is given, and then defaults to 30 tokens, 2 per second, 8192
     * users. Gantry limits by default with room for any normal use ({@link #GANTRY_DEFAULT}: a burst of 500 requests,
     * then 100 a second per user, where one controller serves thousands); {@code rl_enable} brings Slurm's defaults
     * for the values not given, and Gantry's {@code rl_disable} turns the limit off.
     */
    public record RateLimit(boolean enabled, int bucketSize, int refillRate, int refillPeriodSeconds, int tableSize) {
        public static final RateLimit SLURM_DEFAULT = new RateLimit(true, 30, 2, 1, 8192);
        public static final RateLimit GANTRY_DEFAULT = new RateLimit(true, 500, 100, 1, 8192);
        public static final RateLimit OFF = new RateLimit(false, 0, 0, 1, 0);

        /** As written in SlurmctldParameters, for messages. */
        public String describe() {
            return enabled ? "rl_bucket_size=" + bucketSize + ",rl_refill_rate=" + refillRate + ",rl_refill_period="
                    + refillPeriodSeconds : "rl_disable";
        }
    }

    /**
     * Gantry's caps on server-streaming calls of the client API (WatchJobs): open at once per user
     * ({@code watch_max_per_user}, default 256) and in all ({@code watch_max}, default 4096), and the bytes their
     * queues may hold together ({@code watch_buffer_mb}; 0, the default, is a quarter of the controller's heap).
     */
    public record WatchLimits(int perUser, int total, long bufferMb) {
        public static final WatchLimits DEFAULT = new WatchLimits(256, 4096, 0);
    }

    public static final SlurmctldParameters DEFAULT = new SlurmctldParameters(RateLimit.GANTRY_DEFAULT, WatchLimits.DEFAULT,
            List.of());

    @Override
    public List<String> ignored() {
        return others.stream().map(o -> "'" + o + "' is not an option Gantry uses; ignored").toList();
    }

    /** @throws IllegalArgumentException naming the option, e.g. "rl_bucket_size=abc: 'abc' is not a whole number" */
    static SlurmctldParameters parse(String raw) {
        List<String> items = Values.list(raw);
        boolean enable = false;
        boolean disable = false;
        Integer bucket = null;
        Integer rate = null;
        Integer period = null;
        Integer table = null;
        WatchLimits w = WatchLimits.DEFAULT;
        int perUser = w.perUser();
        int total = w.total();
        long bufferMb = w.bufferMb();
        List<String> others = new ArrayList<>();
        for (String text : items) {
            OptionItem item = OptionItem.of(text);
            switch (item.name()) {
                case "rl_enable" -> enable = true;
                case "rl_disable" -> disable = true;
                case "rl_bucket_size" -> bucket = number(item, 1, 1 << 30);
                case "rl_refill_rate" -> rate = number(item, 1, 1 << 30);
                case "rl_refill_period" -> period = number(item, 1, 86_400);
                case "rl_table_size" -> table = number(item, 1, 1 << 24);
                case "watch_max_per_user" -> perUser = number(item, 1, 1 << 20);
                case "watch_max" -> total = number(item, 1, 1 << 20);
                case "watch_buffer_mb" -> bufferMb = number(item, 0, 1 << 20);
                default -> others.add(text);
            }
        }
        if (enable && disable) {
            throw new IllegalArgumentException("rl_enable and rl_disable contradict each other");
        }
        RateLimit base = enable ? RateLimit.SLURM_DEFAULT : RateLimit.GANTRY_DEFAULT;
        RateLimit rl = disable ? RateLimit.OFF : new RateLimit(true, bucket != null ? bucket : base.bucketSize(),
                rate != null ? rate : base.refillRate(), period != null ? period : base.refillPeriodSeconds(),
                table != null ? table : base.tableSize());
        if (perUser > total) {
            throw new IllegalArgumentException("watch_max_per_user=" + perUser + " is above watch_max=" + total);
        }
        return new SlurmctldParameters(rl, new WatchLimits(perUser, total, bufferMb), List.copyOf(others));
    }

    private static int number(OptionItem item, int min, int max) {
        return (int) item.number(min, max);
    }
}
