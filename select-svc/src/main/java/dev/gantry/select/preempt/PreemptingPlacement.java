package dev.gantry.select.preempt;

import dev.gantry.select.placement.Placement;
import java.util.List;

/**
 * A pending job's start that needs {@code victims} preempted first (none when it fits as is).
 *
 * @param victims       preemptable jobs to preempt, in the order they were given
 * @param preemptedCpus CPUs the victims hold in all (the cost both policies minimise)
 */
public record PreemptingPlacement(Placement.Start start, List<Long> victims, long preemptedCpus) {

    public PreemptingPlacement {
        victims = List.copyOf(victims);
    }
}
