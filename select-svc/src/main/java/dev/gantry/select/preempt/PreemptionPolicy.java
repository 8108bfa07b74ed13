package dev.gantry.select.preempt;

import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import java.util.List;
import java.util.Optional;

/**
 * Chooses where a pending job starts and which running jobs to preempt for it. Decides only: the caller re-validates
 * and preempts (docs/style.md rule 2).
 */
public interface PreemptionPolicy {

    /**
     * @param preemptable running jobs the job may preempt, most preferred victim first (Slurm's order: QOS, or
     *                    partition PriorityTier, and size, then the oldest; or youngest first); jobs the view does not
     *                    hold are ignored. Among victim sets of equal cost, the earlier candidates are preempted
     * @return the start and its victims, or empty when it cannot start even with all of them preempted
     */
    Optional<PreemptingPlacement> place(StartTrial trial, ResourceRequest job, List<Long> preemptable);
}
