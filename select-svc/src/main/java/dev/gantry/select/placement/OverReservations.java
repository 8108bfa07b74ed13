package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
import dev.gantry.select.model.ReplicaView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BackfillPolicy=PREEMPT (Gantry, after Moab's PREEMPT backfill policy), answered in the backfill pass's own call: the
 * eligible jobs (those of such partitions) that the pass left blocked for lack of resources — reserved, estimated, or
 * without a start for Resources or Priority — are placed once more by a plain placement that ignores the reservations,
 * on what the pass's starts leave free. The jobs that hold a reservation are placed with them, in queue order, so what
 * is free now for a higher job is not taken by a lower one. The controller starts the tried jobs that get a start,
 * marked preemptable.
 */
public final class OverReservations {
    private OverReservations() {}

    /**
     * @param jobs the backfill pass's jobs, in its order
     * @param answers its answers, one per job in the same order
     * @param eligible the jobs that may start over reservations
     * @return the tried jobs that can start now, in queue order
     */
    public static List<Placement.Start> place(PlacementPlanner planner, ReplicaView view, List<BackfillJob> jobs,
            List<BackfillAnswer> answers, Set<Long> eligible) {
        if (eligible.isEmpty()) {
            return List.of();
        }
        Map<Long, ResourceRequest> requests = new HashMap<>();
        jobs.forEach(j -> requests.put(j.request().jobId(), j.request()));
        List<Placement.Start> held = new ArrayList<>();
        List<ResourceRequest> placed = new ArrayList<>();
        Set<Long> tried = new HashSet<>();
        for (BackfillAnswer answer : answers) {
            ResourceRequest request = requests.get(answer.jobId());
            switch (answer) {
                case BackfillAnswer.StartNow start -> held.add(start.start());
                case BackfillAnswer.Reserved reserved -> {
                    placed.add(request);
                    if (eligible.contains(answer.jobId())) {
                        tried.add(answer.jobId());
                    }
                }
                case BackfillAnswer.Estimated estimated -> {
                    if (eligible.contains(answer.jobId())) {
                        placed.add(request);
                        tried.add(answer.jobId());
                    }
                }
                case BackfillAnswer.NoStart none -> {
                    if (eligible.contains(answer.jobId())
                            && (none.reason() == PendingReason.RESOURCES || none.reason() == PendingReason.PRIORITY)) {
                        placed.add(request);
                        tried.add(answer.jobId());
                    }
                }
                case BackfillAnswer.NotTested untested -> { }
            }
        }
        if (tried.isEmpty()) {
            return List.of();
        }
        List<Placement> placements = planner.plan(view, held, requests::get, placed, PlanOptions.of(false));
        List<Placement.Start> starts = new ArrayList<>();
        for (Placement p : placements) {
            if (p instanceof Placement.Start s && tried.contains(s.jobId())) {
                starts.add(s);
            }
        }
        return List.copyOf(starts);
    }
}
