package dev.gantry.gang.slice;

import java.util.List;

/** Jobs of one partition to suspend and to resume, in the order decided. */
public record PartitionDecision(String partition, List<Long> suspend, List<Long> resume) {

    public PartitionDecision {
        suspend = List.copyOf(suspend);
        resume = List.copyOf(resume);
    }

    /** Suspensions plus resumptions: the swaps this decision makes. */
    public int swaps() {
        return suspend.size() + resume.size();
    }
}
