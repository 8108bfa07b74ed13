package dev.gantry.scheduler.control;

import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.overlap.ActiveSet;
import dev.gantry.common.overlap.Holding;
import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.NodeTable;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether resuming a suspended job would run it on resources a running job of the same or a higher PriorityTier holds,
 * by the gang scheduler's own overlap rule ({@link OverlapRule}, from SelectType and SelectTypeParameters: whole nodes,
 * cores, sockets or counted CPUs). gang-svc decides on a replica that may lag the controller; the controller applies a
 * resume only when this finds nothing, so two overlapping jobs never run together whatever gang-svc saw (a job of a
 * lower tier running there is gang-svc's to suspend: its shadow rule). A running job counts while its processes may
 * run: RUNNING, or completing (being killed). Not thread-safe: the controller thread's, like the state it reads.
 */
public final class ResumeOverlap {

    private final ClusterState state;
    private final OverlapRule rule;
    private final NodeTable table = new NodeTable();

    public ResumeOverlap(ClusterState state, OverlapRule rule) {
        this.state = state;
        this.rule = rule;
        for (NodeConfig n : state.config().nodes()) {
            table.put(new NodeShape(n.name(), n.cpus(), n.coresPerSocket()));
        }
    }

    /**
     * A running job of the same or a higher tier that {@code job} would overlap (the first in id order that overlaps
     * it alone, else the first of those that overlap it together); empty when resuming it overlaps nothing.
     */
    public Optional<Long> conflict(JobRecord job) {
        Holding candidate = holding(job);
        int tier = state.tier(job);
        TreeSet<Long> near = new TreeSet<>();
        for (NodeShare share : job.allocation()) {
            near.addAll(state.holders(share.node()));
        }
        ActiveSet running = rule.emptySet(table);
        Long first = null;
        for (long id : near) {
            JobRecord other = state.job(id);
            if (id == job.id() || other == null || !mayRun(other) || state.tier(other) < tier) {
                continue;
            }
            Holding holding = holding(other);
            ActiveSet alone = rule.emptySet(table);
            alone.add(holding);
            if (!alone.fits(candidate)) {
                return Optional.of(id);
            }
            running.add(holding);
            first = first == null ? id : first;
        }
        // no single job overlaps it, but together they may (counted CPUs: 4 + 4 + 2 on an 8-CPU node)
        return running.fits(candidate) ? Optional.empty() : Optional.ofNullable(first);
    }

    /** Its processes may run: not suspended (by gang-svc, a preemption or an operator) and still holding resources. */
    private static boolean mayRun(JobRecord j) {
        return ClusterState.holds(j) && j.state() != JobState.SUSPENDED;
    }

    private Holding holding(JobRecord j) {
        List<NodeHold> holds = new ArrayList<>(j.allocation().size());
        for (NodeShare s : j.allocation()) {
            holds.add(new NodeHold(s.node(), s.cpus(), s.coreIds()));
        }
        return Holding.of(holds, table);
    }
}
