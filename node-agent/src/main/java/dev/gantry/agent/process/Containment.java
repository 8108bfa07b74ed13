package dev.gantry.agent.process;

import java.util.Collection;
import java.util.Map;

/**
 * Holds each job's processes together so they can be signalled, stopped and counted as one. The process-group
 * implementation relies on the batch script leading its own group (setsid) and on its children staying in it;
 * a cgroup implementation (freezer, and no escape by setsid) comes later behind the same interface.
 * Implementations are thread-safe.
 */
public interface Containment {

    /** The metric label of this implementation, e.g. {@code process_group}. */
    String mode();

    /** Contains a just-started batch script, the leader of the job's processes. */
    JobGroup contain(long jobId, long leaderPid);

    /** One sample of CPU time and resident memory per group, taken in one pass over the host's processes. */
    Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups);

    /** The processes of one job. */
    interface JobGroup {

        /** The job's id on the host for logs: the process group id. */
        long id();

        /** Delivers {@code signal} to every process of the job; a group with no process left is not an error. */
        void signal(int signal);

        /** Stops every process in place. */
        void freeze();

        /** Continues every process after {@link #freeze()}. */
        void thaw();

        /** Whether no live process of the job is left (zombies awaiting their reaper count as gone). */
        boolean isEmpty();
    }

    /**
     * @param cpuSeconds user + system time of the group's live processes and their waited-for children
     * @param rssKb resident memory of the group's live processes together
     */
    record GroupUsage(double cpuSeconds, long rssKb) {
        public static final GroupUsage NONE = new GroupUsage(0, 0);
    }
}
