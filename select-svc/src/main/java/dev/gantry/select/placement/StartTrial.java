package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What-if starts for preemption: where a job would start now if some running jobs were gone — or, for the jobs named
 * {@link #suspending}, suspended: only their CPUs are freed, their memory and GRES stay held (PreemptMode=SUSPEND,GANG).
 * Each trial works on its own copy of the ledger (O(nodes × units)); the view and this object are never changed.
 *
 * <p>Thread-safe after construction (trials copy).
 */
public final class StartTrial {

    private final ReplicaView view;
    private final Ledger base;
    private final Set<Long> suspended;
    private final PlacementPlanner planner = PlacementPlanner.standard();

    public StartTrial(ReplicaView view) {
        this(view, Ledger.base(view).copy(), Set.of());
    }

    private StartTrial(ReplicaView view, Ledger base, Set<Long> suspended) {
        this.view = view;
        this.base = base;
        this.suspended = suspended;
    }

    /**
     * The same trial in which preempting one of {@code jobs} suspends it rather than ending it: it frees its CPUs but
     * keeps its memory and GRES ({@link Ledger#releaseCpus}).
     */
    public StartTrial suspending(Collection<Long> jobs) {
        return new StartTrial(view, base, Set.copyOf(jobs));
    }

    /**
     * The trial after a decision: {@code victims} gone and {@code start} (of {@code request}) holding its shares — so a
     * batch of preemption queries is answered in order, each seeing the ones before it.
     */
    public StartTrial after(Collection<Long> victims, Placement.Start start, ResourceRequest request) {
        Ledger next = base.copy();
        preempt(next, victims);
        boolean exclusiveUser = view.partition(start.partition()).map(ClusterPartition::exclusiveUser).orElse(false);
        next.hold(start.jobId(), start.partition(), start.nodes(), request.options().exclusive(),
                request.owner().orExclusive(exclusiveUser));
        return new StartTrial(view, next, suspended);
    }

    /**
     * The trial with {@code starts} holding their shares (each of the request {@code requests} gives for its job): a
     * Plan's placements, so the preemption questions answered after it see what they take. One copy of the ledger.
     */
    public StartTrial holding(List<Placement.Start> starts, java.util.function.LongFunction<ResourceRequest> requests) {
        if (starts.isEmpty()) {
            return this;
        }
        Ledger next = base.copy();
        for (Placement.Start start : starts) {
            ResourceRequest request = requests.apply(start.jobId());
            boolean exclusiveUser = view.partition(start.partition()).map(ClusterPartition::exclusiveUser).orElse(false);
            next.hold(start.jobId(), start.partition(), start.nodes(), request.options().exclusive(),
                    request.owner().orExclusive(exclusiveUser));
        }
        return new StartTrial(view, next, suspended);
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
        preempt(ledger, gone);
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
            Optional<List<NodeAllotment>> shares = planner.tryStart(ledger, shape.get(), members, request.jobId());
            if (shares.isPresent()) {
                return Optional.of(new Placement.Start(request.jobId(), name, shares.get()));
            }
        }
        return Optional.empty();
    }

    private void preempt(Ledger ledger, Collection<Long> victims) {
        for (Long v : victims) {
            if (suspended.contains(v)) {
                ledger.releaseCpus(v);
            } else {
                ledger.release(v);
            }
        }
    }

    /** The nodes {@code jobId} holds now (empty when unknown). */
    public List<String> nodesOf(long jobId) {
        return base.sharesOf(jobId).stream().map(NodeAllotment::node).toList();
    }

    /** CPUs {@code jobId} holds now, on all nodes (under select/linear, whole nodes). */
    public long cpusOf(long jobId) {
        return base.sharesOf(jobId).stream().mapToLong(NodeAllotment::cpus).sum();
    }
}
