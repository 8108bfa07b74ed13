package dev.gantry.gang.slice;

import dev.gantry.common.overlap.Holding;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.NodeTable;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.gang.model.PartitionJobs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * gang-svc's time-slicing core: every partition's job list and active set, and the shadows running jobs of higher
 * PriorityTier partitions cast on lower ones (https://slurm.schedmd.com/gang_scheduling.html and the gang part of
 * https://slurm.schedmd.com/preempt.html). Jobs under a shadow are suspended and resumed when it goes; time-slicing
 * never happens between partitions.
 *
 * <p>Fed the controller's allocations (a snapshot, then changes) with the time of each step as an {@link Instant};
 * every step returns its decisions as a {@link SliceOutcome} and executes nothing. {@link #take()} hands over what
 * still has to reach the controller; {@link #applied} or {@link #failed} is how that went. Not thread-safe: one
 * thread at a time.
 */
public final class Timeslicer {

    /** Processing order: higher PriorityTier first (their shadows settle before lower tiers), then by name. */
    private static final Comparator<PartitionRotation> TIER_ORDER = Comparator
            .comparingInt((PartitionRotation p) -> -p.priorityTier).thenComparing(p -> p.name);

    /** Suspended first, by reported suspension time (unknown last), then running; stable, so allocation order next. */
    private static final Comparator<Allocated> REBUILD_ORDER = Comparator
            .comparing((Allocated a) -> !a.suspended())
            .thenComparing(Allocated::suspendedSince, Comparator.nullsLast(Comparator.naturalOrder()));

    private final GangSettings settings;
    private final OverlapRule rule;
    private final NodeTable table = new NodeTable();
    private final Map<String, PartitionRotation> partitions = new TreeMap<>();
    private final Map<Long, GangJob> jobs = new HashMap<>();

    private Timeslicer(GangSettings settings, OverlapRule rule) {
        this.settings = settings;
        this.rule = rule;
    }

    /**
     * The state a snapshot describes, each job running or suspended as reported (suspended since its reported time,
     * else since {@code now}). {@code allocations} come in allocation order; each list is rebuilt as the next rotation
     * would order it: suspended jobs first, longest suspended first (reported time, then allocation order), then the
     * running ones. So rotation continues where it was when suspension times are reported. Call {@link #reconcile}
     * next.
     */
    public static Timeslicer rebuild(GangSettings settings, OverlapRule rule, List<NodeShape> nodes,
                                     List<PartitionShape> partitions, List<Allocated> allocations, Instant now) {
        Timeslicer slicer = new Timeslicer(settings, rule);
        nodes.forEach(slicer.table::put);
        partitions.forEach(p -> slicer.partitions.put(p.name(), new PartitionRotation(p)));
        allocations.stream().sorted(REBUILD_ORDER).forEach(a -> slicer.add(a, now));
        return slicer;
    }

    public GangSettings settings() {
        return settings;
    }

    /** Rebuilds every active set without rotating: after a rebuild, and after any change of who holds what. */
    public SliceOutcome reconcile(Instant now) {
        SliceLog log = new SliceLog();
        reconcile(now, log);
        return log.outcome();
    }

    /** One SchedulerTimeSlice elapsed: every partition with a waiting job rotates. */
    public SliceOutcome slice(Instant now) {
        SliceLog log = new SliceLog();
        forEachByTier((partition, shadows) -> {
            if (partition.rotate(shadows, rule, table, now, log)) {
                log.rotated(partition.name);
            }
        });
        return log.outcome();
    }

    /**
     * A job started, or was re-adopted. A new job goes last in its partition's list and is suspended at once if it
     * overlaps the active set (or a shadow); a known one keeps its place (a new partition: last there).
     */
    public SliceOutcome allocationAdded(Allocated allocation, Instant now) {
        SliceLog log = new SliceLog();
        GangJob known = jobs.get(allocation.jobId());
        if (known == null) {
            add(allocation, now);
        } else {
            observe(known, allocation, now, log);
        }
        reconcile(now, log);
        return log.outcome();
    }

    /**
     * The controller reports a job suspended or resumed. Its answer to gang-svc's own request changes nothing; a
     * suspension by someone else holds the job out of rotation, a resumption by someone else puts it back running.
     */
    public SliceOutcome allocationChanged(Allocated allocation, Instant now) {
        GangJob job = jobs.get(allocation.jobId());
        if (job == null) {
            return allocationAdded(allocation, now);
        }
        boolean wasRunning = job.running;
        boolean wasHeld = job.held;
        String wasIn = job.partition;
        SliceLog log = new SliceLog();
        boolean resized = observe(job, allocation, now, log);
        if (resized || !wasIn.equals(job.partition) || wasRunning != job.running || wasHeld != job.held) {
            reconcile(now, log);
        }
        return log.outcome();
    }

    /** A job's resources are free again: it leaves its list, and jobs it blocked may resume at once. */
    public SliceOutcome released(long jobId, Instant now) {
        GangJob job = jobs.remove(jobId);
        if (job == null) {
            return SliceOutcome.NONE;
        }
        PartitionRotation partition = partitions.get(job.partition);
        partition.jobs.remove(job);
        SliceLog log = new SliceLog();
        if (partition.gang && !job.running) {
            log.ended(job.partition, job, now);
        }
        reconcile(now, log);
        return log.outcome();
    }

    /** A node's CPUs or cores per socket, for CR_CPU counting and CR_Socket. */
    public void nodeChanged(NodeShape node) {
        table.put(node);
    }

    /** Per partition, gang-svc's decisions not yet applied by the controller nor on their way to it. */
    public List<PartitionDecision> outstanding() {
        List<PartitionDecision> out = new ArrayList<>();
        for (PartitionRotation partition : partitions.values()) {
            List<Long> suspend = new ArrayList<>();
            List<Long> resume = new ArrayList<>();
            for (GangJob job : partition.jobs) {
                if (job.outstanding()) {
                    (job.running ? resume : suspend).add(job.id);
                }
            }
            if (!suspend.isEmpty() || !resume.isEmpty()) {
                out.add(new PartitionDecision(partition.name, suspend, resume));
            }
        }
        return out;
    }

    /** Whether {@code jobId} has a decision in {@link #outstanding()} (O(1), for after each event). */
    public boolean isOutstanding(long jobId) {
        GangJob job = jobs.get(jobId);
        return job != null && job.outstanding();
    }

    /**
     * {@link #outstanding()}, marked as on its way to the controller: not returned again until {@link #failed} or
     * {@link #applied} says otherwise, and the events answering it are known as gang-svc's own.
     */
    public List<PartitionDecision> take() {
        List<PartitionDecision> out = outstanding();
        for (PartitionDecision decision : out) {
            decision.suspend().forEach(id -> jobs.get(id).requested = false);
            decision.resume().forEach(id -> jobs.get(id).requested = true);
        }
        return out;
    }

    /** A call carrying {@code decision} failed: nothing of it was applied, so it is outstanding again. */
    public void failed(PartitionDecision decision) {
        decision.suspend().forEach(id -> forget(id, false));
        decision.resume().forEach(id -> forget(id, true));
    }

    /**
     * The controller's answer to an ApplySlice of {@link #take()}n decisions: applied ones are awaited on the stream;
     * skipped ones will not come. A refused resumption of a job still reported suspended means someone else
     * suspended it (an administrator): it is held out of rotation, and its resources go to the jobs that fit there
     * now (the returned decisions).
     */
    public SliceOutcome applied(List<Long> suspended, List<Long> resumed, List<Long> skipped, Instant now) {
        boolean held = false;
        for (long id : skipped) {
            GangJob job = jobs.get(id);
            if (job == null) {
                continue;
            }
            job.requested = null;
            if (!job.held && job.running && job.observedSuspended) {
                job.held = true;
                held = true;
            }
        }
        return held ? reconcile(now) : SliceOutcome.NONE;
    }

    /** Every partition by name: its list in rotation order and the jobs running in it (gang-svc's decision). */
    public List<PartitionJobs> view() {
        List<PartitionJobs> view = new ArrayList<>(partitions.size());
        for (PartitionRotation partition : partitions.values()) {
            List<Long> ids = new ArrayList<>(partition.jobs.size());
            List<Long> active = new ArrayList<>();
            for (GangJob job : partition.jobs) {
                ids.add(job.id);
                if (job.rotates() && job.running) {
                    active.add(job.id);
                }
            }
            view.add(new PartitionJobs(partition.name, ids, active));
        }
        return view;
    }

    private void reconcile(Instant now, SliceLog log) {
        forEachByTier((partition, shadows) -> partition.reconcile(shadows, rule, table, now, log));
    }

    private void forget(long id, boolean running) {
        GangJob job = jobs.get(id);
        if (job != null && job.requested != null && job.requested == running) {
            job.requested = null;
        }
    }

    private void add(Allocated allocation, Instant now) {
        GangJob job = new GangJob(allocation.jobId(), allocation.partition(), Holding.of(allocation.nodes(), table),
                allocation.suspended(), allocation.suspendedSince() == null ? now : allocation.suspendedSince());
        jobs.put(job.id, job);
        partition(allocation.partition()).jobs.add(job);
    }

    /** Applies a reported allocation to a known job; returns whether its resources changed. */
    private boolean observe(GangJob job, Allocated allocation, Instant now, SliceLog log) {
        Holding holding = Holding.of(allocation.nodes(), table);
        boolean resized = !holding.sameAs(job.holding);
        job.holding = holding;
        if (!job.partition.equals(allocation.partition())) {
            partitions.get(job.partition).jobs.remove(job);
            job.partition = allocation.partition();
            partition(job.partition).jobs.add(job);
        }
        boolean suspended = allocation.suspended();
        job.observedSuspended = suspended;
        if (job.requested != null && job.requested == !suspended) {
            job.requested = null;  // the controller's answer to gang-svc's own request
            return resized;
        }
        if (!partitions.get(job.partition).gang) {
            job.running = !suspended;
            job.filler = !suspended;
        } else if (suspended && job.running) {
            job.held = true;       // suspended by someone else: out of rotation until seen running
        } else if (!suspended && (job.held || !job.running)) {
            job.held = false;      // resumed by someone else: running again, and checked for overlap
            log.ended(job.partition, job, now);
            job.running = true;
            job.filler = true;     // it joined between rotations
        }
        return resized;
    }

    private PartitionRotation partition(String name) {
        return partitions.computeIfAbsent(name, n -> new PartitionRotation(new PartitionShape(n, 0, settings.gangFor(""))));
    }

    private void forEachByTier(PartitionStep step) {
        List<PartitionRotation> ordered = new ArrayList<>(partitions.values());
        ordered.sort(TIER_ORDER);
        List<Holding> shadows = new ArrayList<>();
        int i = 0;
        while (i < ordered.size()) {
            int tier = ordered.get(i).priorityTier;
            int end = i;
            while (end < ordered.size() && ordered.get(end).priorityTier == tier) {
                step.apply(ordered.get(end), List.copyOf(shadows));
                end++;
            }
            for (int j = i; j < end; j++) {
                ordered.get(j).addRunningHoldings(shadows);
            }
            i = end;
        }
    }

    @FunctionalInterface
    private interface PartitionStep {
        void apply(PartitionRotation partition, List<Holding> shadows);
    }
}
