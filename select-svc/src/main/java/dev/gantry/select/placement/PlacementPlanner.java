package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeShare;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Places an ordered batch of jobs on a replica view: one {@link Placement} per request, in request order, each
 * accounting for the placements before it. Pure: the view is not changed, and the same inputs give the same output.
 *
 * <p>A job tries its partitions in its order of preference and starts in the first (UP or DRAIN) that fits it now
 * (see {@link NodeSelector} for how nodes are chosen). A job that starts nowhere is pending with reason:
 * <ol>
 *   <li>Resources, when some partition it could start in lacks free resources;</li>
 *   <li>else Priority, when it was not tried in some partition because a job before it was blocked there;</li>
 *   <li>else its first partition's state: PartitionDown, PartitionInactive, or PartitionConfig (unknown partition).</li>
 * </ol>
 * With {@code stopAtFirstBlocked} (Slurm's main scheduling pass), a partition where a job got Resources is blocked:
 * later jobs are not tried there, so lower-priority jobs never start ahead of a higher-priority one in a partition.
 * Without it (backfill-style what-ifs, WillRun) every job is tried on its own merits.
 *
 * <p>Thread-safe: holds no state between calls.
 */
public final class PlacementPlanner {

    private final NodeSelector selector;

    public PlacementPlanner(NodeFilter filter, NodeScorer scorer) {
        this.selector = new NodeSelector(filter, scorer);
    }

    /** The skeleton's stages: {@link FreeResourcesFilter} and {@link WeightThenBestFitScorer}. */
    public static PlacementPlanner standard() {
        return new PlacementPlanner(new FreeResourcesFilter(), new WeightThenBestFitScorer());
    }

    public List<Placement> plan(ReplicaView view, List<ResourceRequest> requests, boolean stopAtFirstBlocked) {
        Capacity capacity = new Capacity(view);
        boolean wholeNodes = view.settings().mode() == SelectMode.LINEAR;
        Set<String> blocked = new HashSet<>();
        List<Placement> placements = new ArrayList<>(requests.size());
        for (ResourceRequest request : requests) {
            placements.add(place(capacity, request, wholeNodes, stopAtFirstBlocked, blocked));
        }
        return placements;
    }

    private Placement place(Capacity capacity, ResourceRequest request, boolean wholeNodes, boolean stopAtFirstBlocked,
                            Set<String> blocked) {
        boolean lackedResources = false;
        boolean waitedBehindPriority = false;
        for (String name : request.partitions()) {
            Optional<ClusterPartition> partition = capacity.view().partition(name);
            if (partition.isEmpty() || !partition.get().state().startsJobs()) {
                continue;
            }
            if (blocked.contains(name)) {
                waitedBehindPriority = true;
                continue;
            }
            Optional<List<NodeShare>> shares = selector.select(capacity, partition.get(), request, wholeNodes);
            if (shares.isPresent()) {
                for (NodeShare share : shares.get()) {
                    capacity.take(capacity.view().indexOf(share.node()), share.cpus(), share.memoryMb());
                }
                return new Placement.Start(request.jobId(), name, shares.get());
            }
            lackedResources = true;
        }
        if (lackedResources) {
            if (stopAtFirstBlocked) {
                for (String name : request.partitions()) {
                    capacity.view().partition(name).filter(p -> p.state().startsJobs()).ifPresent(p -> blocked.add(p.name()));
                }
            }
            return new Placement.Pending(request.jobId(), PendingReason.RESOURCES);
        }
        if (waitedBehindPriority) {
            return new Placement.Pending(request.jobId(), PendingReason.PRIORITY);
        }
        return new Placement.Pending(request.jobId(), partitionReason(capacity.view(), request.partitions().getFirst()));
    }

    private static PendingReason partitionReason(ReplicaView view, String partition) {
        return view.partition(partition)
                .map(p -> switch (p.state()) {
                    case INACTIVE -> PendingReason.PARTITION_INACTIVE;
                    case UP, DOWN, DRAIN -> PendingReason.PARTITION_DOWN;
                })
                .orElse(PendingReason.PARTITION_CONFIG);
    }
}
