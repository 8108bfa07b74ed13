package dev.gantry.common.config;

import java.util.function.Function;

/**
 * A global slurm.conf key with its value type and default. Keys are matched case-insensitively, as
 * Slurm does. The parser throws IllegalArgumentException with what is wrong (without file or line;
 * the config parser adds them).
 *
 * @param <T> the parsed value type
 */
public record Key<T>(String name, Function<String, T> parser, T defaultValue, String doc) {

    public T parse(String raw) {
        return parser.apply(raw);
    }
}
