package dev.gantry.select.placement;

import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser for {@link Constraint}: expr = term ('|' term)*, term = factor ('&' factor)*, factor = name
 * ['*' count] | '(' expr ')' | '[' expr ']'. A count ({@code a*2}) is accepted and read as "every node has a"
 * (stricter than Slurm, which wants that many of the job's nodes to have it).
 */
final class ConstraintParser {

    private final String text;
    private int at;

    private ConstraintParser(String text) {
        this.text = text.replace(" ", "");
    }

    static Constraint parse(String text) {
        if (text == null || text.isBlank()) {
            return Constraint.ANY;
        }
        ConstraintParser parser = new ConstraintParser(text);
        Constraint c = parser.expression();
        if (parser.at != parser.text.length()) {
            throw parser.error("unexpected '" + parser.text.charAt(parser.at) + "'");
        }
        return c;
    }

    private Constraint expression() {
        List<Constraint> parts = new ArrayList<>(List.of(term()));
        while (peek('|')) {
            at++;
            parts.add(term());
        }
        return parts.size() == 1 ? parts.getFirst() : new Constraint.Either(parts);
    }

    private Constraint term() {
        List<Constraint> parts = new ArrayList<>(List.of(factor()));
        while (peek('&') || peek(',')) {
            at++;
            parts.add(factor());
        }
        return parts.size() == 1 ? parts.getFirst() : new Constraint.All(parts);
    }

    private Constraint factor() {
        if (peek('(')) {
            at++;
            Constraint inner = expression();
            expect(')');
            return inner;
        }
        if (peek('[')) {
            at++;
            Constraint inner = expression();
            expect(']');
            return new Constraint.OneSetOf(inner instanceof Constraint.Either either ? either.parts() : List.of(inner));
        }
        int start = at;
        while (at < text.length() && "&|,()[]*".indexOf(text.charAt(at)) < 0) {
            at++;
        }
        if (start == at) {
            throw error("a feature name expected");
        }
        String name = text.substring(start, at);
        if (peek('*')) {
            // name*count: Slurm wants count of the job's nodes with the feature; read conservatively as "every node".
            at++;
            int digits = at;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            if (digits == at) {
                throw error("a node count expected after '*'");
            }
        }
        return new Constraint.Feature(name);
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
        at++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("constraint '" + text + "' at " + at + ": " + what);
    }
}
