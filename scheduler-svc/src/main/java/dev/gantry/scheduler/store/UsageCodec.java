package dev.gantry.scheduler.store;

import dev.gantry.scheduler.priority.Association;
import dev.gantry.scheduler.priority.UsageSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fair-share usage snapshot as stored: UTF-8 text, first line the snapshot's time in epoch milliseconds, then
 * one line per value: {@code account TAB user TAB name TAB value} (user empty for an account's own row). Values are
 * written with {@link Double#toString}, so they read back exactly.
 */
public final class UsageCodec {
    private UsageCodec() {}

    public static byte[] encode(UsageSnapshot s) {
        StringBuilder out = new StringBuilder().append(s.asOf().toEpochMilli()).append('\n');
        s.usage().forEach((assoc, values) -> values.forEach((name, v) -> out.append(assoc.account()).append('\t')
                .append(assoc.user()).append('\t').append(name).append('\t').append(v).append('\n')));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws IllegalArgumentException when the bytes are not a snapshot this codec wrote */
    public static UsageSnapshot decode(byte[] bytes) {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        try {
            Instant asOf = Instant.ofEpochMilli(Long.parseLong(lines[0].trim()));
            Map<Association, Map<String, Double>> usage = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].isEmpty()) {
                    continue;
                }
                String[] f = lines[i].split("\t", -1);
                if (f.length != 4) {
                    throw new IllegalArgumentException("line " + (i + 1) + " has " + f.length + " fields, not 4");
                }
                usage.computeIfAbsent(Association.of(f[0], f[1]), k -> new LinkedHashMap<>()).put(f[2], Double.parseDouble(f[3]));
            }
            return new UsageSnapshot(asOf, usage);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a usage snapshot: " + e.getMessage(), e);
        }
    }
}
