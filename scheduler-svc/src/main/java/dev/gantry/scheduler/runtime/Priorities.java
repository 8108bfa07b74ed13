package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.priority.FairShare;
import dev.gantry.scheduler.priority.FairShareTable;
import dev.gantry.scheduler.priority.MultifactorPriority;
import dev.gantry.scheduler.priority.PriorityFactors;
import dev.gantry.scheduler.priority.PriorityInput;
import dev.gantry.scheduler.priority.ShareRow;
import dev.gantry.scheduler.priority.TresAmount;
import dev.gantry.scheduler.priority.UsageSnapshot;
import dev.gantry.scheduler.store.StateStore;
import dev.gantry.scheduler.store.StoreException;
import dev.gantry.scheduler.store.UsageCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Job priorities and fair-share usage on the controller thread (priority/multifactor): running jobs' usage is
 * charged as they run (at every recalculation and when they end), and every pending job's priority is recomputed
 * every PriorityCalcPeriod; a new job gets its priority at submission. With priority/basic, jobs keep their
 * first-in-first-out priority. Priorities an administrator set (scontrol update Priority=, top) are left alone.
 */
public final class Priorities {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Priorities.class);

    /** A pending reason under which Slurm does not count the job as eligible (its age does not grow). */
    private static final Set<PendingReason> NOT_ELIGIBLE = EnumSet.of(PendingReason.HELD_ADMIN, PendingReason.HELD_USER,
            PendingReason.BEGIN_TIME, PendingReason.DEPENDENCY, PendingReason.DEPENDENCY_NEVER_SATISFIED);

    private final ClusterConfig config;
    private volatile MultifactorPriority multifactor;
    private FairShare fairShare;
    private FairShareTable table;
    /** Per running job: the time up to which its usage has been charged. */
    private final Map<Long, Instant> chargedUntil = new HashMap<>();

    Priorities(ClusterConfig config, UsageSnapshot usage, Instant now) {
        this.config = config;
        this.multifactor = "priority/multifactor".equals(config.get(Keys.PRIORITY_TYPE)) ? MultifactorPriority.of(config) : null;
        this.fairShare = usage == null ? FairShare.of(config) : FairShare.of(config, usage);
        this.table = fairShare.table(now);
    }

    boolean multifactor() {
        return multifactor != null;
    }

    /** A new job's priority; {@code basic} is its first-in-first-out value under priority/basic. */
    long initial(JobRecord j, long basic, Instant now) {
        return multifactor == null ? basic : multifactor.priority(input(j), now, table);
    }

    /**
     * The QOS in force changed (UpdateQos, or edits loaded at start): QOS priorities and usage factors follow it;
     * the usage so far is kept.
     */
    void qosChanged(dev.gantry.common.config.Accounting accounting, Instant now) {
        ClusterConfig edited = config.withAccounting(accounting);
        if (multifactor != null) {
            multifactor = MultifactorPriority.of(edited);
        }
        fairShare = fairShare.reconfigured(edited, now);
        table = fairShare.table(now);
    }

    /** The job started: its usage is charged from now on. */
    void started(JobRecord j, Instant now) {
        chargedUntil.put(j.id(), now);
    }

    /** The job stopped holding resources at {@code end}: charges what was not charged yet. */
    void stopped(JobRecord j, Instant end) {
        Instant from = chargedUntil.remove(j.id());
        if (from != null) {
            charge(j, from, end);
        }
    }

    /**
     * Charges running jobs' usage up to now, recomputes the fair-share table and every pending job's priority.
     *
     * @return the pending jobs whose priority changed (their new versions, to put in the state)
     */
    List<JobRecord> recalculate(Iterable<JobRecord> jobs, Instant now) {
        List<JobRecord> changed = new ArrayList<>();
        List<JobRecord> pending = new ArrayList<>();
        for (JobRecord j : jobs) {
            Instant from = chargedUntil.get(j.id());
            if (from != null && j.state() == JobState.RUNNING && now.isAfter(from)) {
                charge(j, from, now);
                chargedUntil.put(j.id(), now);
            } else if (from != null && j.state() == JobState.SUSPENDED) {
                chargedUntil.put(j.id(), now); // a suspended job is charged nothing
            }
            if (j.state() == JobState.PENDING && !j.completing() && !j.controls().adminPriority()) {
                pending.add(j);
            }
        }
        table = fairShare.table(now);
        if (multifactor == null) {
            return changed;
        }
        List<PriorityInput> inputs = new ArrayList<>(pending.size());
        pending.forEach(j -> inputs.add(input(j)));
        long[] next = multifactor.priorities(inputs, now, table);
        for (int i = 0; i < next.length; i++) {
            JobRecord j = pending.get(i);
            if (next[i] != j.priority()) {
                changed.add(j.toBuilder().priority(next[i]).build());
            }
        }
        return changed;
    }

    /** sprio's rows for these pending jobs (an administrator's fixed priority is shown as the total). */
    List<PriorityFactors> factors(List<JobRecord> pending, Instant now) {
        List<PriorityFactors> out = new ArrayList<>(pending.size());
        for (JobRecord j : pending) {
            if (multifactor == null) {
                out.add(new PriorityFactors(j.id(), j.partition(), j.user(), j.controls().account(), j.controls().qos(),
                        j.priority(), 0, 0, 0, 0, 0, 0, j.controls().nice(), Map.of()));
            } else {
                PriorityFactors f = multifactor.factors(input(j), now, table);
                out.add(j.controls().adminPriority() ? new PriorityFactors(f.jobId(), f.partition(), f.user(), f.account(),
                        f.qos(), j.priority(), f.site(), f.age(), f.fairshare(), f.jobSize(), f.partitionFactor(),
                        f.qosFactor(), f.nice(), f.tres()) : f);
            }
        }
        return out;
    }

    /** The multifactor settings, or null under priority/basic. Immutable: readable from any thread. */
    public MultifactorPriority weights() {
        return multifactor;
    }

    List<ShareRow> shares(Instant now) {
        return fairShare.shares(now);
    }

    /** The fair-share form (classic, linear). Readable from any thread. */
    public String form() {
        return fairShare.algorithm().name();
    }

    UsageSnapshot snapshot(Instant now) {
        return fairShare.snapshot(now);
    }

    private static final String USAGE = "fairshare-usage";

    /** The usage the last controller stored, or null (none, or unreadable: then fair share starts from none). */
    static UsageSnapshot storedUsage(StateStore store) throws StoreException {
        var saved = store.get(USAGE);
        if (saved.isEmpty()) {
            return null;
        }
        try {
            return UsageCodec.decode(saved.get());
        } catch (IllegalArgumentException e) {
            LOG.warn("stored fair-share usage is unreadable ({}); starting from none", e.getMessage());
            return null;
        }
    }

    /** Stores the usage as of {@code now}, off the calling thread. */
    void store(StateStore store, Instant now) {
        byte[] usage = UsageCodec.encode(snapshot(now));
        Thread.ofVirtual().name("store-usage").start(() -> {
            try {
                store.put(USAGE, usage);
            } catch (StoreException e) {
                LOG.warn("could not store fair-share usage: {}", e.getMessage());
            }
        });
    }

    private void charge(JobRecord j, Instant from, Instant to) {
        double seconds = (to.toEpochMilli() - from.toEpochMilli()) / 1000.0;
        if (seconds <= 0) {
            return;
        }
        long cpus = 0;
        long mem = 0;
        long gpus = 0;
        for (NodeShare s : j.allocation()) {
            cpus += s.cpus();
            mem += s.memoryMb();
            gpus += s.gres().stream().filter(g -> g.name().equals("gpu")).mapToLong(g -> g.count()).sum();
        }
        fairShare.charge(j.controls().account(), j.user(), j.controls().qos(),
                TresAmount.of(cpus, mem, j.allocation().size(), gpus), seconds, to);
    }

    private static PriorityInput input(JobRecord j) {
        JobControls c = j.controls();
        long eligible = NOT_ELIGIBLE.contains(j.pendingReason()) ? PriorityInput.NOT_ELIGIBLE
                : JobProtos.eligibleTime(j).getEpochSecond();
        var a = j.ask();
        long mem = a.memPerCpuMb() > 0 ? a.memPerCpuMb() * a.totalCpus() : a.memPerNodeMb() * a.minNodes();
        long gpus = a.selection().gres().stream().filter(g -> g.name().equals("gpu")).mapToLong(g -> g.count()).sum()
                * a.minNodes();
        return new PriorityInput(j.id(), j.user(), c.account(), j.partition(), c.qos(), eligible,
                TresAmount.of(a.totalCpus(), mem, a.minNodes(), gpus), c.nice(), 0);
    }

}
