package dev.gantry.scheduler.control;

import dev.gantry.common.job.PendingReason;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of evaluating a dependency: its overall status and each term's.
 *
 * @param status SATISFIED, WAITING or NEVER for the whole list ('?' = any term, ',' = every term)
 * @param terms each term with its own status, in the order written
 * @param anyOf whether the terms were joined with '?'
 */
public record DependencyResult(DependencyStatus status, List<TermStatus> terms, boolean anyOf) {

    /** One term and where it stands. */
    public record TermStatus(DependencyTerm term, DependencyStatus status) {}

    public DependencyResult {
        terms = List.copyOf(terms);
    }

    /** The pending reason this dependency gives: Dependency, DependencyNeverSatisfied, or none when satisfied. */
    public Optional<PendingReason> pendingReason() {
        return switch (status) {
            case SATISFIED -> Optional.empty();
            case WAITING -> Optional.of(PendingReason.DEPENDENCY);
            case NEVER -> Optional.of(PendingReason.DEPENDENCY_NEVER_SATISFIED);
        };
    }

    /**
     * The dependency as scontrol shows it while it matters: the terms not yet satisfied, each marked
     * {@code (unfulfilled)} or {@code (failed)}, e.g. {@code afterok:12(unfulfilled),afterany:13(unfulfilled)};
     * "(null)" once the dependency is satisfied.
     */
    public String describe() {
        if (status == DependencyStatus.SATISFIED) {
            return "(null)";
        }
        StringBuilder b = new StringBuilder();
        for (TermStatus t : terms) {
            if (t.status() == DependencyStatus.SATISFIED) {
                continue;
            }
            if (!b.isEmpty()) {
                b.append(anyOf ? '?' : ',');
            }
            b.append(t.term()).append(t.status() == DependencyStatus.NEVER ? "(failed)" : "(unfulfilled)");
        }
        return b.toString();
    }
}
