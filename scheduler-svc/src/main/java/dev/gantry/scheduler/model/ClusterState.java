package dev.gantry.scheduler.model;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The controller's jobs and nodes, and the bookkeeping that keeps node allocations equal to the sum of the
 * running jobs' shares. Not thread-safe: one thread owns it, the one that created it until it {@linkplain #handOverTo
 * hands it over} (the controller hands it to the controller thread). Every write checks that it runs on the owner and
 * throws {@link IllegalStateException}, naming the writing thread, when it does not; reads are not checked.
 */
public final class ClusterState {

    private final ClusterConfig config;
    private final TreeMap<Long, JobRecord> jobs = new TreeMap<>();
    /** Each user's job ids: one user's listing reads that user's jobs only. */
    private final UserJobIndex byUser = new UserJobIndex();
    private final Map<String, NodeRecord> nodes = new LinkedHashMap<>();
    /** Partitions by name: looked up for every pending job on every pass. */
    private final Map<String, PartitionConfig> partitions = new java.util.HashMap<>();
    /** Per node: GRES held by running jobs, by {@link GresGrant#key()}. */
    private final Map<String, Map<String, Long>> gresInUse = new java.util.HashMap<>();
    /** Per node: how many jobs hold each core (CR_Core); absent when no job names cores there. */
    private final Map<String, int[]> coreUse = new java.util.HashMap<>();
    /** Per node, per user: {jobs holding part of it, how many of them are user-exclusive}; absent when none. */
    private final Map<String, Map<String, int[]>> owners = new java.util.HashMap<>();
    /** Per node: the jobs holding part of it (running, suspended or completing); absent when none. */
    private final Map<String, java.util.Set<Long>> holders = new java.util.HashMap<>();
    /** Set once, from any thread, as the service is wired; called on the owning thread. */
    private volatile Consumer<JobRecord> jobListener = j -> {};
    /** The only thread that may write (volatile: a hand-over is seen by the new owner). */
    private volatile Thread owner = Thread.currentThread();

    public ClusterState(ClusterConfig config) {
        this.config = config;
        for (NodeConfig n : config.nodes()) {
            nodes.put(n.name(), NodeRecord.configured(n));
        }
        config.partitions().forEach(p -> partitions.put(p.name(), p));
    }

    public ClusterConfig config() {
        return config;
    }

    public JobRecord job(long id) {
        return jobs.get(id);
    }

    /** Jobs in id order. */
    public Collection<JobRecord> jobs() {
        return jobs.values();
    }

    /** Jobs with ids above {@code id}, in id order. */
    public Collection<JobRecord> jobsAfter(long id) {
        return jobs.tailMap(id, false).values();
    }

    /**
     * The jobs of {@code users} with ids above {@code id}, in id order: read through each user's ids, so the cost is
     * theirs, not the whole queue's. Valid until the next write.
     */
    public Iterable<JobRecord> jobsOf(Collection<String> users, long id) {
        return () -> new java.util.Iterator<>() {
            private final java.util.Iterator<Long> ids = byUser.idsAfter(users, id);
            private JobRecord next = advance();

            private JobRecord advance() {
                while (ids.hasNext()) {
                    JobRecord j = jobs.get(ids.next());
                    if (j != null) { // a forgotten job's id lingers until its list is compacted
                        return j;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public JobRecord next() {
                if (next == null) {
                    throw new java.util.NoSuchElementException();
                }
                JobRecord j = next;
                next = advance();
                return j;
            }
        };
    }

    /**
     * Stores a new version of a job. Allocations follow it: resources are taken when it starts holding them
     * and given back when it stops (including when a completing job's processes are finally gone).
     */
    public void put(JobRecord job) {
        checkOwner();
        JobRecord old = jobs.put(job.id(), job);
        if (old == null) {
            byUser.added(userOf(job), job.id());
        }
        jobListener.accept(job);
        boolean held = old != null && holds(old);
        boolean holds = holds(job);
        // an operator's suspension releases the CPUs (and cores) and keeps memory and GRES
        boolean same = held && holds && old.allocation().equals(job.allocation())
                && old.adminSuspended() == job.adminSuspended();
        if (held && !same) {
            adjust(old.allocation(), -1, !old.adminSuspended());
            own(old, -1);
        }
        if (holds && !same) {
            adjust(job.allocation(), +1, !job.adminSuspended());
            own(job, +1);
        }
    }

    /**
     * A job is user-exclusive when it asked --exclusive=user or its partition is ExclusiveUser=YES: no other user's job
     * shares its nodes (https://slurm.schedmd.com/sbatch.html#OPT_exclusive).
     */
    public boolean exclusiveUser(JobRecord j, String partition) {
        PartitionConfig p = partitions.get(partition);
        return (j.request() != null && j.request().exclusiveUser()) || (p != null && p.exclusiveUser());
    }

    /** The users whose jobs (running, suspended or completing) hold part of {@code node}: {jobs, user-exclusive jobs}. */
    public Map<String, int[]> owners(String node) {
        return java.util.Collections.unmodifiableMap(owners.getOrDefault(node, Map.of()));
    }

    /** The ids of the jobs holding part of {@code node}: running, suspended or completing. */
    public java.util.Set<Long> holders(String node) {
        return java.util.Collections.unmodifiableSet(holders.getOrDefault(node, java.util.Set.of()));
    }

    private void own(JobRecord j, int sign) {
        boolean exclusive = exclusiveUser(j, j.partition());
        String user = j.user() == null ? "" : j.user();
        for (String node : new java.util.LinkedHashSet<>(j.nodeNames())) {
            if (sign > 0) {
                holders.computeIfAbsent(node, k -> new java.util.HashSet<>()).add(j.id());
            } else {
                java.util.Set<Long> on = holders.get(node);
                if (on != null && on.remove(j.id()) && on.isEmpty()) {
                    holders.remove(node);
                }
            }
            Map<String, int[]> users = owners.computeIfAbsent(node, k -> new java.util.HashMap<>());
            int[] count = users.computeIfAbsent(user, k -> new int[2]);
            count[0] += sign;
            count[1] += exclusive ? sign : 0;
            if (count[0] <= 0) {
                users.remove(user);
                if (users.isEmpty()) {
                    owners.remove(node);
                }
            }
        }
    }

    /** Told every new job version, on the owning thread (one listener: the job watch); may be set from any thread. */
    public void onJobChange(Consumer<JobRecord> listener) {
        this.jobListener = listener;
    }

    /** Forgets a finished job (it stays in the database). */
    public void purge(long id) {
        checkOwner();
        JobRecord old = jobs.get(id);
        if (old != null && !holds(old)) {
            jobs.remove(id);
            byUser.removed(userOf(old), jobs::containsKey);
        }
    }

    /** The ids {@link #jobsOf} holds for {@code user}, forgotten ones not yet compacted away included (tests). */
    int userIndexSize(String user) {
        return byUser.held(user);
    }

    private static String userOf(JobRecord j) {
        return j.user() == null ? "" : j.user();
    }

    /** Makes {@code next} the only thread that may write from now on; called by the current owner. */
    public void handOverTo(Thread next) {
        checkOwner();
        owner = next;
    }

    private void checkOwner() {
        Thread current = Thread.currentThread();
        if (current != owner) {
            throw new IllegalStateException("cluster state written from thread \"" + current.getName()
                    + "\"; only its owner, \"" + owner.getName() + "\", may write it");
        }
    }

    /** A job holds its nodes while running or suspended, and while its processes are being killed. */
    public static boolean holds(JobRecord j) {
        return !j.allocation().isEmpty() && (j.state().holdsResources() || j.completing());
    }

    /** @param cpus whether the shares' CPUs and cores count (not while an operator keeps the job suspended) */
    private void adjust(List<NodeShare> shares, int sign, boolean cpus) {
        for (NodeShare s : shares) {
            NodeRecord n = nodes.get(s.node());
            if (n != null) {
                nodes.put(n.name(), n.withAllocation(n.allocCpus() + (cpus ? sign * s.cpus() : 0),
                        n.allocMemoryMb() + sign * s.memoryMb()));
                for (GresGrant g : s.gres()) {
                    gresInUse.computeIfAbsent(s.node(), k -> new java.util.HashMap<>()).merge(g.key(), sign * g.count(), Long::sum);
                }
                if (cpus && !s.coreIds().isEmpty()) {
                    int[] use = coreUse.computeIfAbsent(s.node(),
                            k -> new int[Math.max(1, n.config().sockets() * n.config().coresPerSocket())]);
                    for (int core : s.coreIds()) {
                        if (core >= 0 && core < use.length) {
                            use[core] += sign;
                        }
                    }
                }
            }
        }
    }

    /** GRES held on a node by running jobs, by {@code name} or {@code name:type}; never null. */
    public Map<String, Long> gresInUse(String node) {
        return java.util.Collections.unmodifiableMap(gresInUse.getOrDefault(node, Map.of()));
    }

    /** How many jobs hold core {@code core} of a node (0 when none, or when cores are not tracked there). */
    public int coreUse(String node, int core) {
        int[] use = coreUse.get(node);
        return use == null || core < 0 || core >= use.length ? 0 : use[core];
    }

    public NodeRecord node(String name) {
        return nodes.get(name);
    }

    public Collection<NodeRecord> nodes() {
        return nodes.values();
    }

    /** Replaces a node's record; allocation counts are kept from the current record. */
    public void putNode(NodeRecord n) {
        checkOwner();
        NodeRecord cur = nodes.get(n.name());
        nodes.put(n.name(), cur == null ? n : n.withAllocation(cur.allocCpus(), cur.allocMemoryMb()));
    }

    public PartitionConfig partition(String name) {
        return partitions.get(name);
    }

    /** The highest PriorityTier among a job's partitions (its queue position across partitions). */
    public int tier(JobRecord j) {
        PartitionConfig p = partition(j.partition());
        return p == null ? 0 : p.priorityTier();
    }
}
