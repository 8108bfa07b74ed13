package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeShare;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What-if starts for preemption: where a job would start now if some running jobs were gone. Each trial works on its
 * own copy of the ledger (O(nodes × units)); the view and this object are never changed.
 *
 * <p>Thread-safe after construction (trials copy).
 */
public final class StartTrial {

    private final ReplicaView view;
    private final Ledger base;
    private final PlacementPlanner planner = PlacementPlanner.standard();

    public StartTrial(ReplicaView view) {
        this(view, Ledger.base(view).copy());
    }

    private StartTrial(ReplicaView view, Ledger base) {
        this.view = view;
        this.base = base;
    }

    /**
     * The trial after a decision: {@code victims} gone and {@code start} holding its shares — so a batch of preemption
     * queries is answered in order, each seeing the ones before it.
     */
    public StartTrial after(Collection<Long> victims, Placement.Start start, boolean exclusive) {
        Ledger next = base.copy();
        victims.forEach(next::release);
        next.hold(start.jobId(), start.partition(), start.nodes(), exclusive);
        return new StartTrial(view, next);
    }

    /** Whether {@code jobId} holds resources in this trial (running, not preempted by an earlier decision). */
    public boolean holds(long jobId) {
        return !base.sharesOf(jobId).isEmpty();
    }

    public ReplicaView view() {
        return view;
    }

    /** Where {@code request} would start (its partitions in order) with {@code gone} jobs' resources free, or empty. */
    public Optional<Placement.Start> startWithout(ResourceRequest request, Collection<Long> gone) {
        Ledger ledger = base.copy();
        gone.forEach(ledger::release);
        boolean linear = view.settings().mode() == SelectMode.LINEAR;
        for (String name : request.partitions()) {
            Optional<ClusterPartition> partition = view.partition(name);
            if (partition.isEmpty() || !partition.get().state().startsJobs()) {
                continue;
            }
            Optional<JobShape> shape = JobShape.of(request, partition.get(), linear);
            if (shape.isEmpty()) {
                continue;
            }
            int[] members = NodeSelector.memberIndexes(ledger, partition.get(), request.options().exclude());
            Optional<List<NodeShare>> shares = planner.tryStart(ledger, shape.get(), members, request.jobId());
            if (shares.isPresent()) {
                return Optional.of(new Placement.Start(request.jobId(), name, shares.get()));
            }
        }
        return Optional.empty();
    }

    /** The nodes {@code jobId} holds now (empty when unknown). */
    public List<String> nodesOf(long jobId) {
        return base.sharesOf(jobId).stream().map(NodeShare::node).toList();
    }

    /** CPUs {@code jobId} holds now, on all nodes (under select/linear, whole nodes). */
    public long cpusOf(long jobId) {
        return base.sharesOf(jobId).stream().mapToLong(NodeShare::cpus).sum();
    }
}
