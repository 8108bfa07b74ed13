package dev.gantry.agent.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Holds each job's processes together so they can be signalled, frozen, limited, measured and counted as one.
 * Implementations: {@link CgroupContainment} (a cgroup per job: v2, v1, or v2 with v1's memory controller) and
 * {@link ProcessGroupContainment} (the batch script leads its own process group; the fallback where no cgroup
 * is writable). Implementations are thread-safe.
 */
public interface Containment {

    /** The metric label of this implementation: {@code cgroup_v2}, {@code cgroup_hybrid}, {@code cgroup_v1}, {@code process_group}. */
    String mode();

    /**
     * Creates the job's container before its batch script starts, with its memory limit.
     *
     * @param memoryMb the job's memory allocation on this node in MiB; 0 = not limited
     */
    JobGroup create(long jobId, long memoryMb) throws IOException;

    /** Re-attaches to a job an earlier run of this agent started, from the {@link JobGroup#descriptor()} it persisted. */
    JobGroup adopt(long jobId, String descriptor, long leaderPid);

    /** One sample of CPU time and resident memory per group. */
    Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups);

    /** Removes the empty containers this agent left behind for jobs other than {@code keep}; best effort. */
    default void sweep(Set<Long> keep) {}

    /** Removes this agent's (empty) container directories when it stops with no job left; best effort. */
    default void removeScope() {}

    /** The processes of one job. */
    interface JobGroup {

        /** For logs: the cgroup's name or the process group id. */
        String id();

        /**
         * The {@code cgroup.procs} files the batch script's first process writes its own pid to before it execs
         * anything, so that every later process of the job starts inside; empty for process groups.
         */
        List<Path> joinFiles();

        /**
         * Moves process {@code pid} (with everything it starts from now on) into the job's cgroups by writing it to
         * each of {@link #joinFiles()}; nothing for process groups.
         */
        default void join(long pid) throws IOException {
            for (Path f : joinFiles()) {
                java.nio.file.Files.writeString(f, Long.toString(pid));
            }
        }

        /** The batch script runs as {@code leaderPid} (its session and process group leader). */
        void started(long leaderPid);

        /**
         * Whether process {@code pid} is inside the job's container yet (it joins its cgroups, or becomes its group's
         * leader, a moment after it starts); signals sent before would miss it.
         */
        boolean holds(long pid);

        /**
         * Counts the process group {@code pgid} of one of the job's step tasks (which leads a session of its own) as
         * part of the job until {@link #removeStepTask}: {@link #signal}, {@link #freeze}, {@link #thaw} and
         * {@link #isEmpty} cover it too. Call once the task leads its group (past setsid) and before it is reaped,
         * so that the id names that group. Nothing for cgroups, whose tasks joined the job's cgroups.
         */
        default void addStepTask(long pgid) {}

        /** Stops counting a step task's group, once its leader was reaped (its id may be reused from then on); idempotent. */
        default void removeStepTask(long pgid) {}

        /** Delivers {@code signal} to every process of the job; a group with no process left is not an error. */
        void signal(int signal);

        /** Stops every process in place; idempotent (freezing a frozen job stops only what joined it since). */
        void freeze();

        /** Continues every process after {@link #freeze()}. */
        void thaw();

        /** Whether no live process of the job is left (zombies awaiting their reaper count as gone). */
        boolean isEmpty();

        /** Whether the kernel killed a process of the job for exceeding its memory limit. */
        boolean outOfMemory();

        /** Removes the container once {@link #isEmpty()}; best effort, idempotent. */
        void release();

        /** What {@link Containment#adopt} needs to re-attach after an agent restart; one line. */
        String descriptor();
    }

    /**
     * @param cpuSeconds user + system time of the job's processes so far (for process groups: the live ones and
     *     their waited-for children)
     * @param rssKb resident memory of the job's processes together, now
     */
    record GroupUsage(double cpuSeconds, long rssKb) {
        public static final GroupUsage NONE = new GroupUsage(0, 0);
    }
}
