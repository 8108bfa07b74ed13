package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import dev.gantry.agent.job.Signals;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Containment by process group: the batch script was started through setsid, so its pid is its session and
 * group id and every child it does not move elsewhere shares that group. Signals go to the whole group with
 * kill(-pgid, sig); suspension is SIGSTOP, resumption SIGCONT. A process that calls setsid or setpgid itself
 * escapes (cgroups close that gap later). Signals are sent only while the job is known to have a process
 * left in its group, because an empty group's id may be reused by an unrelated process.
 */
public final class ProcessGroupContainment implements Containment {

    public static final String MODE = "process_group";

    private final double ticksPerSecond;
    private final long pageKb;

    public ProcessGroupContainment() {
        long ticks = LibC.INSTANCE.sysconf(LibC.SC_CLK_TCK);
        long page = LibC.INSTANCE.sysconf(LibC.SC_PAGESIZE);
        this.ticksPerSecond = ticks > 0 ? ticks : 100;
        this.pageKb = page > 0 ? page / 1024 : 4;
    }

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public JobGroup contain(long jobId, long leaderPid) {
        return new ProcessGroup(leaderPid);
    }

    @Override
    public Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups) {
        Map<Long, JobGroup> byPgid = new HashMap<>();
        for (JobGroup g : groups) {
            byPgid.put(g.id(), g);
        }
        Map<Long, long[]> sums = new HashMap<>();
        for (ProcStat p : ProcFs.all()) {
            if (p.isLive() && byPgid.containsKey(p.pgrp())) {
                long[] sum = sums.computeIfAbsent(p.pgrp(), k -> new long[2]);
                sum[0] += p.cpuTicksWithChildren();
                sum[1] += p.rssPages();
            }
        }
        Map<JobGroup, GroupUsage> out = new HashMap<>();
        byPgid.forEach((pgid, group) -> {
            long[] sum = sums.get(pgid);
            out.put(group, sum == null ? GroupUsage.NONE : new GroupUsage(sum[0] / ticksPerSecond, sum[1] * pageKb));
        });
        return out;
    }

    /** A job's process group, named by its leader's pid. */
    record ProcessGroup(long id) implements JobGroup {

        @Override
        public void signal(int signal) {
            try {
                LibC.INSTANCE.kill((int) -id, signal);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LibC.ESRCH) {
                    throw new IllegalStateException("kill(-" + id + ", " + signal + ") failed: errno " + e.getErrorCode(), e);
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
            return ProcFs.group(id).isEmpty();
        }
    }
}
