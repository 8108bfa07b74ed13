package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.QosConfig;
import dev.gantry.common.config.TresLimits;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether a pending job may be considered for a start now, and if not, Slurm's reason: holds, begin time,
 * dependencies, array throttles and QOS limits, checked in that order. Limits count what is running plus what
 * this pass has already let through ({@link #admit}), so two jobs of a user cannot both pass MaxJobsPerUser=1 in
 * one pass. One instance per pass; not thread-safe. Pure.
 */
public final class Eligibility {

    /** What a job's dependencies say now. */
    public enum Verdict { SATISFIED, WAITING, NEVER }

    /** Evaluates a job's remaining dependencies against the other jobs' states. */
    @FunctionalInterface
    public interface Dependencies {
        Verdict check(JobRecord job);
    }

    /** Resources counted against QOS limits: CPUs, memory (MiB), GPUs, and running jobs. */
    private static final class Usage {
        long cpus;
        long memMb;
        long gpus;
        int jobs;

        void add(long c, long m, long g) {
            cpus += c;
            memMb += m;
            gpus += g;
            jobs++;
        }
    }

    private static final Usage NO_USAGE = new Usage();

    private final Instant now;
    private final Map<String, QosConfig> qos;
    private final Dependencies dependencies;
    private final Map<String, Usage> byQos = new HashMap<>();
    /** QOS → user → usage (nested, so a lookup builds no key). */
    private final Map<String, Map<String, Usage>> byQosUser = new HashMap<>();
    private final Map<Long, Integer> runningTasks = new HashMap<>();

    /**
     * @param running the jobs holding resources now (running or suspended)
     * @param qos the QOS definitions by name; a job whose QOS is missing is not limited
     */
    public Eligibility(Instant now, Iterable<JobRecord> running, Map<String, QosConfig> qos, Dependencies dependencies) {
        this.now = now;
        this.qos = qos;
        this.dependencies = dependencies;
        for (JobRecord j : running) {
            count(j, cpus(j), mem(j), gpus(j));
        }
    }

    /** Null when the job may be tried now; else the pending reason. Does not count the job: see {@link #admit}. */
    public PendingReason reason(JobRecord j) {
        JobControls c = j.controls();
        if (c.hold() == JobControls.Hold.ADMIN || (j.priority() == 0 && c.adminPriority())) {
            return PendingReason.HELD_ADMIN;
        }
        if (c.hold() == JobControls.Hold.USER) {
            return PendingReason.HELD_USER;
        }
        if (c.beginTime() != null && now.isBefore(c.beginTime())) {
            return PendingReason.BEGIN_TIME;
        }
        if (!c.dependency().isEmpty()) {
            switch (dependencies.check(j)) {
                case WAITING -> { return PendingReason.DEPENDENCY; }
                case NEVER -> { return PendingReason.DEPENDENCY_NEVER_SATISFIED; }
                case SATISFIED -> { }
            }
        }
        if (c.isArrayTask() && c.arrayMaxRunning() > 0
                && runningTasks.getOrDefault(c.arrayJobId(), 0) >= c.arrayMaxRunning()) {
            return PendingReason.ARRAY_TASK_LIMIT;
        }
        QosConfig q = qos.get(c.qos());
        if (q == null) {
            return null;
        }
        if (q.maxWallSeconds() >= 0 && (j.timeLimitSeconds() < 0 || j.timeLimitSeconds() > q.maxWallSeconds())) {
            return PendingReason.QOS_MAX_WALL;
        }
        boolean tresLimits = !q.maxTresPerUser().limits().isEmpty() || !q.grpTres().limits().isEmpty();
        if (q.maxJobsPerUser() < 0 && !tresLimits) {
            return null; // nothing more to check: the common case costs no lookups
        }
        Usage user = byQosUser.getOrDefault(c.qos(), Map.of()).getOrDefault(j.user(), NO_USAGE);
        if (q.maxJobsPerUser() >= 0 && user.jobs >= q.maxJobsPerUser()) {
            return PendingReason.QOS_MAX_JOBS_PER_USER;
        }
        if (!tresLimits) {
            return null;
        }
        long cpus = j.ask().totalCpus();
        long mem = requestedMem(j);
        long gpus = requestedGpus(j);
        String perUser = over(q.maxTresPerUser(), user, cpus, mem, gpus);
        if (perUser != null) {
            return switch (perUser) {
                case "cpu" -> PendingReason.QOS_MAX_CPU_PER_USER;
                case "mem" -> PendingReason.QOS_MAX_MEM_PER_USER;
                default -> PendingReason.QOS_MAX_GRES_PER_USER;
            };
        }
        String group = over(q.grpTres(), byQos.getOrDefault(c.qos(), NO_USAGE), cpus, mem, gpus);
        if (group != null) {
            return switch (group) {
                case "cpu" -> PendingReason.QOS_GRP_CPU;
                case "mem" -> PendingReason.QOS_GRP_MEM;
                default -> PendingReason.QOS_GRP_GRES;
            };
        }
        return null;
    }

    /** Counts a job this pass lets through against its limits, as if it started. */
    public void admit(JobRecord j) {
        QosConfig q = qos.get(j.controls().qos());
        boolean limited = q != null && (q.maxJobsPerUser() >= 0 || !q.maxTresPerUser().limits().isEmpty()
                || !q.grpTres().limits().isEmpty());
        if (limited) {
            count(j, j.ask().totalCpus(), requestedMem(j), requestedGpus(j));
        } else if (j.controls().isArrayTask()) {
            runningTasks.merge(j.controls().arrayJobId(), 1, Integer::sum);
        }
    }

    private void count(JobRecord j, long cpus, long mem, long gpus) {
        JobControls c = j.controls();
        byQos.computeIfAbsent(c.qos(), k -> new Usage()).add(cpus, mem, gpus);
        byQosUser.computeIfAbsent(c.qos(), k -> new HashMap<>()).computeIfAbsent(j.user(), k -> new Usage()).add(cpus, mem, gpus);
        if (c.isArrayTask()) {
            runningTasks.merge(c.arrayJobId(), 1, Integer::sum);
        }
    }

    /** The first TRES ("cpu", "mem", "gres/gpu") whose limit the job would pass, or null. */
    private static String over(TresLimits limits, Usage used, long cpus, long mem, long gpus) {
        if (exceeds(limits, "cpu", used.cpus + cpus)) {
            return "cpu";
        }
        if (exceeds(limits, "mem", used.memMb + mem)) {
            return "mem";
        }
        if (exceeds(limits, "gres/gpu", used.gpus + gpus)) {
            return "gres/gpu";
        }
        return null;
    }

    private static boolean exceeds(TresLimits limits, String tres, long total) {
        long limit = limits.limit(tres);
        return limit >= 0 && total > limit;
    }

    private static long cpus(JobRecord j) {
        return j.allocation().stream().mapToLong(NodeShare::cpus).sum();
    }

    private static long mem(JobRecord j) {
        return j.allocation().stream().mapToLong(NodeShare::memoryMb).sum();
    }

    private static long gpus(JobRecord j) {
        return j.allocation().stream().flatMap(s -> s.gres().stream()).filter(g -> g.name().equals("gpu"))
                .mapToLong(g -> g.count()).sum();
    }

    /** Memory a pending job asks for in total (MiB): per node × min nodes, or per CPU × CPUs. */
    static long requestedMem(JobRecord j) {
        var a = j.ask();
        return a.memPerCpuMb() > 0 ? a.memPerCpuMb() * a.totalCpus() : a.memPerNodeMb() * a.minNodes();
    }

    static long requestedGpus(JobRecord j) {
        return j.ask().selection().gres().stream().filter(g -> g.name().equals("gpu"))
                .mapToLong(g -> g.count()).sum() * j.ask().minNodes();
    }
}
