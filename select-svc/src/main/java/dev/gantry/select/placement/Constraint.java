package dev.gantry.select.placement;

import dev.gantry.common.resources.FeatureConstraint;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A job's {@code --constraint} as node selection applies it (https://slurm.schedmd.com/sbatch.html#OPT_constraint):
 * {@link #ANY} when the job gave none, else the expression, parsed by the one parser scheduler-svc checked it with at
 * submission ({@link FeatureConstraint}). Selection tries its {@link #alternatives()} in order, so that the nodes of a
 * matching-OR {@code [a|b]} all come from one alternative, and checks each node with {@link #matches}.
 *
 * @param expression the parsed expression; empty for {@link #ANY}
 */
public record Constraint(Optional<FeatureConstraint> expression) {

    /** No constraint: every node matches. */
    public static final Constraint ANY = new Constraint(Optional.empty());

    /**
     * Parses an expression (see {@link FeatureConstraint}); blank is {@link #ANY}.
     *
     * @throws IllegalArgumentException saying where the expression is malformed
     */
    public static Constraint parse(String text) {
        return text == null || text.isBlank() ? ANY : new Constraint(Optional.of(FeatureConstraint.parse(text.trim())));
    }

    /** Whether a node with {@code features} satisfies this (a matching-OR: any one alternative). */
    public boolean matches(Set<String> features) {
        return expression.isEmpty() || expression.get().matches(features);
    }

    /** The plain expressions (no matching-OR) one of which every node of the job must satisfy, in order. */
    public List<Constraint> alternatives() {
        return expression.map(e -> e.alternatives().stream().map(a -> new Constraint(Optional.of(a))).toList())
                .orElse(List.of(ANY));
    }

    /** Whether this is {@link #ANY}. */
    public boolean isAny() {
        return expression.isEmpty();
    }
}
