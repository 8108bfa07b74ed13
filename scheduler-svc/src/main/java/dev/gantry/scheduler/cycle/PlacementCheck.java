package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.resources.FeatureConstraint;
import dev.gantry.placement.Consumables;
import dev.gantry.placement.JobSizing;
import dev.gantry.placement.ProposalCheck;
import dev.gantry.placement.ResourceUnit;
import dev.gantry.placement.Sharing;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Re-checks a placement proposed by select-svc against the controller's current state before acting on it
 * (propose, then validate: select-svc's replica may be behind). The placement itself is checked by the placement core's
 * {@link ProposalCheck} (node count, partition membership, -w/-x, the CPUs in all, and per node
 * {@link dev.gantry.placement.NodeFit} — the rule select-svc proposed with: sharing, cores, memory, GRES, --exclusive,
 * user exclusivity), fed the controller's state by {@link PlacementMapping}. Checked here around it: the job is still
 * pending, its partition was requested and is up, and node features (--constraint). Not re-checked: --contiguous, the
 * matching-OR form of --constraint and topology (they cannot over-allocate). Pure.
 */
public final class PlacementCheck {
    private PlacementCheck() {}

    /** Empty when the job can start there now; otherwise why not. */
    public static Optional<String> check(ClusterState state, JobRecord job, String partitionName, List<NodeShare> shares) {
        return check(state, job, partitionName, shares, List.of());
    }

    /**
     * The same for a preemptor placed over the jobs it suspends (PreemptMode=SUSPEND,GANG, select-svc's
     * PlacePreempting with them suspendable): their CPUs and cores count as free, their memory and GRES as held — a
     * suspended job stays in memory (https://slurm.schedmd.com/preempt.html). Precondition: {@code suspended} hold
     * resources in {@code state}.
     */
    public static Optional<String> check(ClusterState state, JobRecord job, String partitionName, List<NodeShare> shares,
            Collection<JobRecord> suspended) {
        if (job == null || job.state() != JobState.PENDING || job.completing()) {
            return Optional.of("job is no longer pending");
        }
        if (!job.partitions().contains(partitionName)) {
            return Optional.of("partition " + partitionName + " was not requested");
        }
        PartitionConfig partition = state.partition(partitionName);
        if (partition == null || !partition.state().startsJobs()) {
            return Optional.of("partition " + partitionName + " is not up");
        }
        NodeSelection selection = job.ask().selection();
        Consumables consumables = PlacementMapping.consumables(state.config());
        JobSizing sizing = JobSizing.of(job.ask().numTasks(), job.ask().cpusPerTask(), job.ask().ntasksPerNode(),
                job.ask().memPerCpuMb(), job.ask().memPerNodeMb(), PlacementMapping.memoryLimits(state.config(), partition));
        Sharing sharing = Sharing.of(partition.overSubscribe().wholeNodes(),
                partition.overSubscribe().maxShare(selection.oversubscribe()), selection.exclusive(),
                consumables.unit() == ResourceUnit.NODE);
        ProposalCheck.JobTerms terms = new ProposalCheck.JobTerms(partitionName, job.ask().minNodes(),
                job.ask().maxNodes(), sizing, sharing, PlacementMapping.gres(selection.gres()),
                PlacementMapping.owner(state, job, partitionName), new HashSet<>(partition.nodes()),
                selection.requiredNodes(), new HashSet<>(selection.excludedNodes()));
        Optional<FeatureConstraint> constraint = selection.constraint().isEmpty() ? Optional.empty()
                : Optional.of(FeatureConstraint.parse(selection.constraint()));
        Set<Long> suspending = suspended.stream().map(JobRecord::id).collect(Collectors.toSet());
        return ProposalCheck.check(terms, shares.stream().map(PlacementMapping::offered).toList(), name -> {
            NodeRecord node = state.node(name);
            return node == null ? null : PlacementMapping.nodeUse(state, node, consumables, suspending);
        }, name -> constraint.isPresent() && !constraint.get().admits(new HashSet<>(state.node(name).config().features()))
                ? Optional.of("node " + name + " does not have the features " + selection.constraint()) : Optional.empty());
    }
}
