package dev.gantry.scheduler.preempt;

import java.util.List;

/**
 * The running jobs one pending job may preempt, most preemptable first: PlacePreempting's preemptable list.
 *
 * @param order the candidates' ids in {@link VictimOrder}
 * @param kept jobs kept by an exemption or by exclusivity (not those its PreemptType or mode never lets it preempt),
 *     for PreemptEligibleTime and the exempt-refusal metric
 * @param reorderCount PreemptParameters reorder_count, for select-svc's reorder step
 * @param strictOrder PreemptParameters strict_order, for select-svc's reorder step
 */
public record CandidateList(long preemptorId, List<Long> order, List<Kept> kept, int reorderCount,
        boolean strictOrder) {

    public CandidateList {
        order = List.copyOf(order);
        kept = List.copyOf(kept);
    }

    /** A running job kept from this preemptor, and why. */
    public record Kept(long jobId, Verdict.Protected verdict) {}
}
