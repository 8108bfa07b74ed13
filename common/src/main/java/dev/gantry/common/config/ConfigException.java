package dev.gantry.common.config;

import java.util.List;

/** A config file could not be used; each problem reads {@code file:line: key: what is wrong}. */
public final class ConfigException extends RuntimeException {

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
