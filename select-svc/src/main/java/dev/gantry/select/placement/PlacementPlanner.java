package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Places an ordered batch of jobs on a replica view: one {@link Placement} per request, in request order, each
 * accounting for the placements (and, with {@link PlanOptions#reserve}, the reservations) before it. Pure: the view is
 * not changed, and the same inputs give the same output.
 *
 * <p>A job tries its partitions in its order of preference and starts in the first (UP or DRAIN) that fits it now
 * (see {@link NodeSelector} for how nodes are chosen). A job that starts nowhere is pending with reason:
 * <ol>
 *   <li>Resources, when some partition it could start in lacks free resources;</li>
 *   <li>else Priority, when it was not tried in some partition because a job before it was blocked there;</li>
 *   <li>else PartitionConfig when every partition's limits (MaxMemPerNode) refuse it;</li>
 *   <li>else its first partition's state: PartitionDown, PartitionInactive, or PartitionConfig (unknown partition).</li>
 * </ol>
 * With {@code stopAtFirstBlocked} (Slurm's main scheduling pass), a partition where a job got Resources is blocked:
 * later jobs are not tried there, so lower-priority jobs never start ahead of a higher-priority one in a partition.
 *
 * <p>Thread-safe: holds no state between calls.
 */
public final class PlacementPlanner {

    private final NodeSelector selector = new NodeSelector();

    public static PlacementPlanner standard() {
        return new PlacementPlanner();
    }

    public List<Placement> plan(ReplicaView view, List<ResourceRequest> requests, boolean stopAtFirstBlocked) {
        return plan(view, requests, PlanOptions.of(stopAtFirstBlocked));
    }

    public List<Placement> plan(ReplicaView view, List<ResourceRequest> requests, PlanOptions options) {
        return plan(view, List.of(), id -> null, requests, options);
    }

    /**
     * {@link #plan}, on the cluster with {@code held} starts already holding their shares (decided earlier in the same
     * call: a backfill pass's starts; each job's request from {@code heldRequests}). Precondition: not reserving.
     */
    public List<Placement> plan(ReplicaView view, List<Placement.Start> held, LongFunction<ResourceRequest> heldRequests,
            List<ResourceRequest> requests, PlanOptions options) {
        PlanRun run = new PlanRun(view, options);
        for (Placement.Start start : held) {
            run.hold(start, heldRequests.apply(start.jobId()));
        }
        Set<String> blocked = new HashSet<>();
        List<Placement> placements = new ArrayList<>(requests.size());
        for (ResourceRequest request : requests) {
            placements.add(place(run, request, options.stopAtFirstBlocked(), blocked));
        }
        return placements;
    }

    /** The backfill pass over {@code jobs} in priority order; see {@link BackfillPass}. */
    public List<BackfillAnswer> backfill(ReplicaView view, List<BackfillJob> jobs, BackfillOptions options) {
        return BackfillPass.run(view, jobs, options);
    }

    private Placement place(PlanRun run, ResourceRequest request, boolean stopAtFirstBlocked, Set<String> blocked) {
        Attempt attempt = attempt(run, request, blocked);
        if (attempt.start() != null) {
            return attempt.start();
        }
        if (attempt.lackedResources()) {
            if (stopAtFirstBlocked) {
                for (String name : request.partitions()) {
                    run.view().partition(name).filter(p -> p.state().startsJobs()).ifPresent(p -> blocked.add(p.name()));
                }
            }
            Optional<Placement.Reservation> reservation = Optional.empty();
            if (run.options().reserve()) {
                Optional<Found> found = run.earliest(attempt.lacking());
                found.ifPresent(run::hold);
                reservation = found.map(Found::reservation);
            }
            return new Placement.Pending(request.jobId(), PendingReason.RESOURCES, reservation);
        }
        return new Placement.Pending(request.jobId(), attempt.reason());
    }

    /**
     * Tries to start {@code request} now in its partitions in order, skipping {@code blocked} ones; charges the start
     * to the run. Not started: the reason by the rules above, and the shapes that lacked resources.
     */
    static Attempt attempt(PlanRun run, ResourceRequest request, Set<String> blocked) {
        boolean linear = run.view().settings().mode() == SelectMode.LINEAR;
        boolean waitedBehindPriority = false;
        boolean refusedByLimits = false;
        List<JobShape> lacking = new ArrayList<>(1);
        for (String name : request.partitions()) {
            Optional<ClusterPartition> partition = run.view().partition(name);
            if (partition.isEmpty() || !partition.get().state().startsJobs()) {
                continue;
            }
            if (blocked.contains(name)) {
                waitedBehindPriority = true;
                continue;
            }
            Optional<JobShape> shape = JobShape.of(request, partition.get(), linear);
            if (shape.isEmpty()) {
                refusedByLimits = true;
                continue;
            }
            Optional<int[]> chosen = run.select(shape.get());
            if (chosen.isPresent()) {
                return Attempt.started(new Placement.Start(request.jobId(), name, run.start(shape.get(), chosen.get())));
            }
            lacking.add(shape.get());
        }
        if (!lacking.isEmpty()) {
            return new Attempt(null, PendingReason.RESOURCES, lacking);
        }
        if (waitedBehindPriority) {
            return new Attempt(null, PendingReason.PRIORITY, lacking);
        }
        if (refusedByLimits) {
            return new Attempt(null, PendingReason.PARTITION_CONFIG, lacking);
        }
        return new Attempt(null, partitionReason(run.view(), request.partitions().getFirst()), lacking);
    }

    private static PendingReason partitionReason(ReplicaView view, String partition) {
        return view.partition(partition)
                .map(p -> switch (p.state()) {
                    case INACTIVE -> PendingReason.PARTITION_INACTIVE;
                    case UP, DOWN, DRAIN -> PendingReason.PARTITION_DOWN;
                })
                .orElse(PendingReason.PARTITION_CONFIG);
    }

    /** Exposed for preemption what-ifs: the nodes {@code shape}'s job would get on {@code ledger} now. */
    Optional<List<NodeAllotment>> tryStart(Ledger ledger, JobShape shape, int[] members, long jobId) {
        return selector.select(ledger, shape, NodeGate.OPEN, members).map(chosen -> {
            List<NodeAllotment> shares = new ArrayList<>(chosen.length);
            for (int i = 0; i < chosen.length; i++) {
                shares.add(ledger.take(jobId, chosen[i], shape.demandOn(i, chosen.length)));
            }
            return shares;
        });
    }
}
