package dev.gantry.common.config;

import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Reads the typed options of one kind of config line: each bad value is reported as {@code key: what is wrong} on its
 * line, under the key's canonical spelling, and the option takes its default. Counts what it reported, so that a line
 * with any problem can define nothing. Not thread-safe; one per parse and kind of line.
 */
final class OptionReader {

    private final NodeResources.Problems problems;
    private final UnaryOperator<String> canonical;
    private int reported;

    /** @param canonical a lower-case key's spelling in messages */
    OptionReader(NodeResources.Problems problems, UnaryOperator<String> canonical) {
        this.problems = problems;
        this.canonical = canonical;
    }

    /** The option {@code key} (lower case) of {@code m} parsed by {@code parser}; {@code def} when unset or bad. */
    <T> T get(Map<String, String> m, String key, Function<String, T> parser, T def, int lineNo) {
        String raw = m.get(key);
        if (raw == null) {
            return def;
        }
        try {
            return parser.apply(raw);
        } catch (IllegalArgumentException | ArithmeticException e) {
            report(lineNo, canonical.apply(key), e.getMessage());
            return def;
        }
    }

    /** Reports a problem with {@code key} (as it is spelled in messages) on line {@code lineNo}. */
    void report(int lineNo, String key, String what) {
        reported++;
        problems.add(lineNo, key, what);
    }

    /** How many problems were reported so far. */
    int reported() {
        return reported;
    }
}
