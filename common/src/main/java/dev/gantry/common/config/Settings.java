package dev.gantry.common.config;

import java.util.Map;

/** The global keys a config file set; unset keys answer their defaults. Immutable. */
public final class Settings {

    private final Map<Key<?>, Object> values;

    Settings(Map<Key<?>, Object> values) {
        this.values = Map.copyOf(values);
    }

    /** The configured value, or the key's default. */
    @SuppressWarnings("unchecked")
    public <T> T get(Key<T> key) {
        Object v = values.get(key);
        return v == null ? key.defaultValue() : (T) v;
    }

    public boolean isSet(Key<?> key) {
        return values.containsKey(key);
    }

    /** A copy with one value replaced (for tests and for admin updates). */
    public <T> Settings with(Key<T> key, T value) {
        var copy = new java.util.HashMap<>(values);
        copy.put(key, value);
        return new Settings(copy);
    }

    static Settings empty() {
        return new Settings(Map.of());
    }
}
