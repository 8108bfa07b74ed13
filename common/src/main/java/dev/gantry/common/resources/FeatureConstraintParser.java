package dev.gantry.common.resources;

import dev.gantry.common.resources.FeatureConstraint.AllOf;
import dev.gantry.common.resources.FeatureConstraint.AnyOf;
import dev.gantry.common.resources.FeatureConstraint.Counted;
import dev.gantry.common.resources.FeatureConstraint.Feature;
import dev.gantry.common.resources.FeatureConstraint.Matching;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Recursive-descent parser for {@link FeatureConstraint}. Grammar (AND binds tighter than OR):
 * <pre>
 *   or    := and ('|' and)*
 *   and   := term ('&amp;' term)*
 *   term  := NAME ('*' COUNT)? | '(' or ')' ('*' COUNT)? | '[' or ']'
 * </pre>
 * Brackets do not nest, as in Slurm.
 */
final class FeatureConstraintParser {

    private final String text;
    private int pos;
    private int bracketDepth;

    FeatureConstraintParser(String text) {
        this.text = text;
    }

    FeatureConstraint parse() {
        if (text.isBlank()) {
            throw new IllegalArgumentException("empty constraint");
        }
        FeatureConstraint c = or();
        if (pos < text.length()) {
            throw error("unexpected '" + text.charAt(pos) + "'");
        }
        return c;
    }

    private FeatureConstraint or() {
        return joined('|', this::and, AnyOf::new);
    }

    private FeatureConstraint and() {
        return joined('&', this::term, AllOf::new);
    }

    /** One or more {@code part}s separated by {@code operator}: a single part is itself, more are {@code join}ed. */
    private FeatureConstraint joined(char operator, Supplier<FeatureConstraint> part,
            Function<List<FeatureConstraint>, FeatureConstraint> join) {
        List<FeatureConstraint> parts = new ArrayList<>();
        parts.add(part.get());
        while (peek() == operator) {
            pos++;
            parts.add(part.get());
        }
        return parts.size() == 1 ? parts.get(0) : join.apply(parts);
    }

    private FeatureConstraint term() {
        char c = peek();
        if (c == '(') {
            pos++;
            FeatureConstraint inner = or();
            expect(')');
            int count = count();
            return count > 0 ? new Counted(inner, count) : inner;
        }
        if (c == '[') {
            if (bracketDepth > 0) {
                throw error("brackets do not nest");
            }
            pos++;
            bracketDepth++;
            FeatureConstraint inner = or();
            expect(']');
            bracketDepth--;
            return new Matching(inner);
        }
        int start = pos;
        while (pos < text.length() && isNameChar(text.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error(pos < text.length() ? "expected a feature name at '" + text.charAt(pos) + "'"
                    : "expected a feature name at the end");
        }
        return new Feature(text.substring(start, pos), count());
    }

    /** An optional {@code *N}; 0 when absent. */
    private int count() {
        if (peek() != '*') {
            return 0;
        }
        pos++;
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error("expected a node count after '*'");
        }
        int n;
        try {
            n = Integer.parseInt(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("node count " + text.substring(start, pos) + " is too large");
        }
        if (n < 1) {
            throw error("node count must be at least 1");
        }
        return n;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'" + (pos < text.length() ? " at '" + text.charAt(pos) + "'" : " at the end"));
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '+';
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("'" + text + "': " + what + " (position " + (pos + 1) + ")");
    }
}
