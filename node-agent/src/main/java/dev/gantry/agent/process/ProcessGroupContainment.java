package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import dev.gantry.agent.job.Signals;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Containment by process group: the batch script was started through setsid, so its pid is its session and
 * group id and every child it does not move elsewhere shares that group. Signals go to the whole group with
 * kill(-pgid, sig); suspension is SIGSTOP, resumption SIGCONT. The job's step tasks lead sessions of their own:
 * each one's group is added to the job while its leader runs ({@link JobGroup#addStepTask}) and gets the same
 * signals. Any other process that calls setsid or setpgid itself escapes, and there is no memory limit: this is
 * the fallback where no cgroup is writable. Signals are sent only while the job is known to have a process left in
 * its group (and a step task's group only until its leader was reaped), because an empty group's id may be reused
 * by an unrelated process.
 */
public final class ProcessGroupContainment implements Containment {

    public static final String MODE = "process_group";

    private final double ticksPerSecond;
    private final long pageKb;

    public ProcessGroupContainment() {
        this.ticksPerSecond = ProcFs.ticksPerSecond();
        this.pageKb = ProcFs.pageKb();
    }

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public JobGroup create(long jobId, long memoryMb) {
        return new ProcessGroup();
    }

    @Override
    public JobGroup adopt(long jobId, String descriptor, long leaderPid) {
        ProcessGroup group = new ProcessGroup();
        group.started(descriptor.startsWith("pgid=") ? Long.parseLong(descriptor.substring(5)) : leaderPid);
        return group;
    }

    @Override
    public Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups) {
        Map<Long, JobGroup> byPgid = new HashMap<>();
        for (JobGroup g : groups) {
            ((ProcessGroup) g).pgids().forEach(pgid -> byPgid.put(pgid, g));
        }
        Map<JobGroup, long[]> sums = new HashMap<>();
        for (ProcStat p : ProcFs.all()) {
            JobGroup group = p.isLive() ? byPgid.get(p.pgrp()) : null;
            if (group != null) {
                long[] sum = sums.computeIfAbsent(group, k -> new long[2]);
                sum[0] += p.cpuTicksWithChildren();
                sum[1] += p.rssPages();
            }
        }
        Map<JobGroup, GroupUsage> out = new HashMap<>();
        for (JobGroup group : groups) {
            long[] sum = sums.get(group);
            out.put(group, sum == null ? GroupUsage.NONE : new GroupUsage(sum[0] / ticksPerSecond, sum[1] * pageKb));
        }
        return out;
    }

    /** A job's process group, named by its leader's pid once it started, and the groups of its running step tasks. */
    static final class ProcessGroup implements JobGroup {

        private volatile long pgid;
        private final Set<Long> stepTasks = ConcurrentHashMap.newKeySet();

        @Override
        public String id() {
            return "pgid " + pgid;
        }

        @Override
        public List<Path> joinFiles() {
            return List.of();
        }

        @Override
        public void started(long leaderPid) {
            pgid = leaderPid;
        }

        @Override
        public boolean holds(long pid) {
            return ProcFs.stat(pid).map(p -> p.pgrp() == pgid).orElse(false);
        }

        @Override
        public void addStepTask(long taskPgid) {
            stepTasks.add(taskPgid);
        }

        @Override
        public void removeStepTask(long taskPgid) {
            stepTasks.remove(taskPgid);
        }

        @Override
        public void signal(int signal) {
            for (long g : pgids()) {
                try {
                    LibC.INSTANCE.kill((int) -g, signal);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() != LibC.ESRCH) {
                        throw new IllegalStateException("kill(-" + g + ", " + signal + ") failed: errno " + e.getErrorCode(), e);
                    }
                }
            }
        }

        @Override
        public void freeze() {
            signal(Signals.SIGSTOP);
        }

        @Override
        public void thaw() {
            signal(Signals.SIGCONT);
        }

        @Override
        public boolean isEmpty() {
            Set<Long> groups = pgids();
            return ProcFs.all().stream().noneMatch(p -> p.isLive() && groups.contains(p.pgrp()));
        }

        @Override
        public boolean outOfMemory() {
            return false;
        }

        @Override
        public void release() {}

        @Override
        public String descriptor() {
            return "pgid=" + pgid;
        }

        /** The process groups of the job: its own once started, then those of its running step tasks. */
        Set<Long> pgids() {
            Set<Long> groups = new LinkedHashSet<>();
            if (pgid > 1) {
                groups.add(pgid);
            }
            groups.addAll(stepTasks);
            return groups;
        }
    }
}
