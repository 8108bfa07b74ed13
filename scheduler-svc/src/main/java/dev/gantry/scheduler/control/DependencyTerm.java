package dev.gantry.scheduler.control;

/**
 * One condition of a dependency: a type and one target, with the delay of {@code after:id+minutes} (0 otherwise).
 * {@code afterok:1:2} is two terms.
 */
public record DependencyTerm(DependencyType type, DependencyTarget target, long delayMinutes) {

    public DependencyTerm {
        if (delayMinutes < 0 || (delayMinutes > 0 && type != DependencyType.AFTER)) {
            throw new IllegalArgumentException("a delay is only for after:, and positive");
        }
    }

    public static DependencyTerm singleton() {
        return new DependencyTerm(DependencyType.SINGLETON, DependencyTarget.NONE, 0);
    }

    /** As Slurm writes it: afterok:12, after:12+5, singleton. */
    @Override
    public String toString() {
        if (type == DependencyType.SINGLETON) {
            return "singleton";
        }
        return type.keyword() + ":" + target + (delayMinutes > 0 ? "+" + delayMinutes : "");
    }
}
