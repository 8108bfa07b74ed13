package dev.gantry.scheduler.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What the client API refused, and its open streams (prefix gantry_). Labelled by the limit, the reason or the RPC
 * method — never by user, whose number is unbounded. Thread-safe.
 */
public final class RefusalMetrics {

    private final MeterRegistry registry;
    private final Counter rateLimited;
    private final Counter untracked;
    private final Map<String, Counter> streamRefused = new ConcurrentHashMap<>();
    private final Map<StreamFeed.Overflow, Counter> streamDropped = new EnumMap<>(StreamFeed.Overflow.class);
    private final Map<String, Counter> permissionDenied = new ConcurrentHashMap<>();

    public RefusalMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.rateLimited = Counter.builder("gantry_rpc_rate_limited_total")
                .description("Client API calls refused RESOURCE_EXHAUSTED by the per-user rate limit (SlurmctldParameters rl_*)")
                .register(registry);
        this.untracked = Counter.builder("gantry_rpc_rate_untracked_total")
                .description("Client API calls let through unlimited because the rate limit's user table (rl_table_size) was full")
                .register(registry);
        for (StreamFeed.Overflow o : StreamFeed.Overflow.values()) {
            streamDropped.put(o, Counter.builder("gantry_watch_streams_dropped_total").tag("reason", label(o.name()))
                    .description("Watch streams ended RESOURCE_EXHAUSTED: the client fell too far behind (behind) or the "
                            + "watchers' shared buffer was full (buffer)")
                    .register(registry));
        }
    }

    /** gantry_watch_streams: server-streaming calls of the client API open now; gantry_watch_buffer_bytes: their backlog. */
    public void gaugeStreams(Supplier<Number> open, Supplier<Number> bufferedBytes) {
        Gauge.builder("gantry_watch_streams", open).description("Server-streaming calls of the client API open now (WatchJobs)")
                .register(registry);
        Gauge.builder("gantry_watch_buffer_bytes", bufferedBytes)
                .description("Bytes queued for watch streams, not yet sent (at most watch_buffer_mb)").register(registry);
    }

    public void rateLimited() {
        rateLimited.increment();
    }

    public void untracked() {
        untracked.increment();
    }

    /** A stream refused at its start; {@code limit}: per_user or total. */
    public void streamRefused(String limit) {
        streamRefused.computeIfAbsent(limit, l -> Counter.builder("gantry_watch_streams_refused_total").tag("limit", l)
                .description("Server-streaming calls refused at their start by watch_max_per_user (per_user) or watch_max (total)")
                .register(registry)).increment();
    }

    public void streamDropped(StreamFeed.Overflow why) {
        streamDropped.get(why).increment();
    }

    /** A call of {@code method} (e.g. "GetBatchScript") ended PERMISSION_DENIED. */
    public void permissionDenied(String method) {
        permissionDenied.computeIfAbsent(method, m -> Counter.builder("gantry_permission_denied_total").tag("method", m)
                .description("Client API calls refused PERMISSION_DENIED, by RPC method").register(registry)).increment();
    }

    private static String label(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
