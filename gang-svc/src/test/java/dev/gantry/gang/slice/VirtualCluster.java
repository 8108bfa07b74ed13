package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fake controller around a {@link Timeslicer} on a virtual clock: it starts and ends jobs, applies gang-svc's
 * decisions at once and reports them back as the event stream would, and accrues each job's run time.
 */
final class VirtualCluster {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final GangSettings settings;
    private final OverlapRule rule;
    private final List<NodeShape> nodes;
    private final List<PartitionShape> partitions;
    /** The controller's allocations, in allocation order, with their current suspended flag. */
    private final Map<Long, Allocated> allocations = new LinkedHashMap<>();
    private final Map<Long, Instant> suspendedAt = new HashMap<>();
    private final Map<Long, Duration> runTime = new HashMap<>();
    private final Set<Long> adminSuspended = new HashSet<>();
    private final List<SliceOutcome> outcomes = new ArrayList<>();
    private Timeslicer slicer;
    private Instant now = T0;
    private boolean controllerUp = true;

    VirtualCluster(GangSettings settings, OverlapRule rule, List<NodeShape> nodes, List<PartitionShape> partitions) {
        this.settings = settings;
        this.rule = rule;
        this.nodes = List.copyOf(nodes);
        this.partitions = List.copyOf(partitions);
        this.slicer = Timeslicer.rebuild(settings, rule, nodes, partitions, List.of(), now);
    }

    /** Five 8-CPU nodes n[12-16] (2 sockets × 4 cores), one gang partition "active", as in Slurm's examples. */
    static VirtualCluster slurmExample(OverlapRule rule) {
        return new VirtualCluster(new GangSettings(true, Duration.ofSeconds(30)), rule,
                Hostlist.expand("n[12-16]").stream().map(n -> new NodeShape(n, 8, 4)).toList(),
                List.of(new PartitionShape("active", 1, true)));
    }

    /** Whole nodes: every node of the host list, all 8 CPUs. */
    static List<NodeHold> nodes(String hostlist) {
        return Hostlist.expand(hostlist).stream().map(n -> new NodeHold(n, 8, List.of())).toList();
    }

    /** The given cores on every node of the host list. */
    static List<NodeHold> cores(String hostlist, Integer... cores) {
        return Hostlist.expand(hostlist).stream().map(n -> new NodeHold(n, cores.length, List.of(cores))).toList();
    }

    /** {@code cpus} counted CPUs (no core ids) on every node of the host list. */
    static List<NodeHold> cpus(String hostlist, int cpus) {
        return Hostlist.expand(hostlist).stream().map(n -> new NodeHold(n, cpus, List.of())).toList();
    }

    SliceOutcome start(long job, String partition, List<NodeHold> holds) {
        Allocated allocation = new Allocated(job, partition, holds, false);
        allocations.put(job, allocation);
        return record(slicer.allocationAdded(allocation, now));
    }

    SliceOutcome start(long job, List<NodeHold> holds) {
        return start(job, "active", holds);
    }

    SliceOutcome end(long job) {
        allocations.remove(job);
        suspendedAt.remove(job);
        return record(slicer.released(job, now));
    }

    /** Lets one SchedulerTimeSlice pass (running jobs accrue it), then the timeslicer takes its slice. */
    SliceOutcome slice() {
        advance(settings.timeSlice());
        return record(slicer.slice(now));
    }

    void advance(Duration duration) {
        for (long job : running()) {
            runTime.merge(job, duration, Duration::plus);
        }
        now = now.plus(duration);
    }

    /** gang-svc restarts: a new timeslicer from the controller's state, with suspension times if {@code withTimes}. */
    SliceOutcome restart(boolean withTimes) {
        List<Allocated> snapshot = allocations.values().stream().map(a -> new Allocated(a.jobId(), a.partition(),
                a.nodes(), a.suspended(), withTimes && a.suspended() ? suspendedAt.get(a.jobId()) : null)).toList();
        slicer = Timeslicer.rebuild(settings, rule, nodes, partitions, snapshot, now);
        return record(slicer.reconcile(now));
    }

    /** An administrator suspends (or resumes) a job; gang-svc sees it on the stream. */
    SliceOutcome adminSuspend(long job, boolean suspend) {
        if (suspend) {
            adminSuspended.add(job);
        } else {
            adminSuspended.remove(job);
        }
        return record(setSuspended(job, suspend));
    }

    /** While down, ApplySlice fails and nothing is applied (decisions stay outstanding). */
    void controllerUp(boolean up) {
        controllerUp = up;
        record(SliceOutcome.NONE);
    }

    Timeslicer slicer() {
        return slicer;
    }

    TreeSet<Long> running() {
        return ids(false);
    }

    TreeSet<Long> suspended() {
        return ids(true);
    }

    Duration runTime(long job) {
        return runTime.getOrDefault(job, Duration.ZERO);
    }

    Instant now() {
        return now;
    }

    /** "R 3 4 S 5": the jobs running and suspended, as the controller reports them. */
    String state() {
        StringBuilder out = new StringBuilder("R");
        running().forEach(id -> out.append(' ').append(id));
        if (!suspended().isEmpty()) {
            out.append(" S");
            suspended().forEach(id -> out.append(' ').append(id));
        }
        return out.toString();
    }

    private TreeSet<Long> ids(boolean suspended) {
        TreeSet<Long> ids = new TreeSet<>();
        allocations.values().stream().filter(a -> a.suspended() == suspended).forEach(a -> ids.add(a.jobId()));
        return ids;
    }

    /** Keeps the step's outcome and applies what gang-svc asks, as ApplySlice then the event stream would. */
    private SliceOutcome record(SliceOutcome outcome) {
        outcomes.add(outcome);
        if (!controllerUp) {
            slicer.take().forEach(slicer::failed);  // the call fails: nothing applied
        }
        for (int round = 0; controllerUp && round < 10 && !slicer.outstanding().isEmpty(); round++) {
            List<SliceOutcome> echoes = new ArrayList<>();
            for (PartitionDecision decision : slicer.take()) {
                List<Long> suspended = new ArrayList<>();
                List<Long> resumed = new ArrayList<>();
                List<Long> skipped = new ArrayList<>();
                decision.suspend().forEach(id -> (canSet(id, true) ? suspended : skipped).add(id));
                decision.resume().forEach(id -> (canSet(id, false) && !adminSuspended.contains(id) ? resumed : skipped).add(id));
                echoes.add(slicer.applied(suspended, resumed, skipped, now));
                suspended.forEach(id -> echoes.add(setSuspended(id, true)));
                resumed.forEach(id -> echoes.add(setSuspended(id, false)));
            }
            outcomes.addAll(echoes);
        }
        return outcome;
    }

    private boolean canSet(long job, boolean suspend) {
        Allocated allocation = allocations.get(job);
        return allocation != null && allocation.suspended() != suspend;
    }

    private SliceOutcome setSuspended(long job, boolean suspend) {
        Allocated old = allocations.get(job);
        Allocated changed = new Allocated(job, old.partition(), old.nodes(), suspend);
        allocations.put(job, changed);
        if (suspend) {
            suspendedAt.put(job, now);
        } else {
            suspendedAt.remove(job);
        }
        return slicer.allocationChanged(changed, now);
    }
}
