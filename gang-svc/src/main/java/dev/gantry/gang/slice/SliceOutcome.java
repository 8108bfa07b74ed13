package dev.gantry.gang.slice;

import java.util.List;

/**
 * What one timeslicer step decided: per partition the jobs to suspend and resume (only partitions with changes, in
 * the order they were processed: higher PriorityTier first), the suspensions that ended, and the partitions whose
 * list rotated (a time slice taken).
 */
public record SliceOutcome(List<PartitionDecision> decisions, List<SuspendedTime> suspensions, List<String> rotated) {

    public static final SliceOutcome NONE = new SliceOutcome(List.of(), List.of(), List.of());

    public SliceOutcome {
        decisions = List.copyOf(decisions);
        suspensions = List.copyOf(suspensions);
        rotated = List.copyOf(rotated);
    }
}
