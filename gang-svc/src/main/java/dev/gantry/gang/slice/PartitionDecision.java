package dev.gantry.gang.slice;

import java.util.List;

/** Jobs of one partition to suspend and to resume, in the order decided. */
public record PartitionDecision(String partition, List<Long> suspend, List<Long> resume) {

    public PartitionDecision {
        suspend = List.copyOf(suspend);
        resume = List.copyOf(resume);
    }

    /** The part of this decision about {@code jobs}. */
    public PartitionDecision only(java.util.Collection<Long> jobs) {
        return new PartitionDecision(partition, suspend.stream().filter(jobs::contains).toList(),
                resume.stream().filter(jobs::contains).toList());
    }

    /** Suspensions plus resumptions: the swaps this decision makes. */
    public int swaps() {
        return suspend.size() + resume.size();
    }
}
