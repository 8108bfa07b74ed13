package dev.gantry.cli.squeue;

import dev.gantry.cli.model.JobInfo;
import java.util.Set;

/**
 * Which jobs squeue shows (Slurm's {@code _filter_job}). Empty sets select everything. Without -t, a job
 * list selects jobs in any state, and no job list selects the active ones (PD, R, S, CG).
 *
 * @param jobIds -j
 * @param users -u (user names)
 * @param partitions -p: a pending job matches any partition it may run in
 * @param states -t, or null when not given
 * @param arrayTasks -j array tasks as "123_4"
 */
public record JobFilter(Set<Long> jobIds, Set<String> users, Set<String> partitions, JobStates.StateFilter states,
                        Set<String> arrayTasks) {

    public JobFilter {
        jobIds = Set.copyOf(jobIds);
        users = Set.copyOf(users);
        partitions = Set.copyOf(partitions);
        arrayTasks = Set.copyOf(arrayTasks);
    }

    /** A filter without array-task ids. */
    public JobFilter(Set<Long> jobIds, Set<String> users, Set<String> partitions, JobStates.StateFilter states) {
        this(jobIds, users, partitions, states, Set.of());
    }

    /** The state filter in effect: -t when given, else all states for a job list, else the active states. */
    public JobStates.StateFilter effectiveStates() {
        if (states != null) {
            return states;
        }
        return jobIds.isEmpty() && arrayTasks.isEmpty() ? JobStates.StateFilter.ACTIVE : JobStates.StateFilter.ALL;
    }

    /** A job id matches the job, and every task of the array it names. */
    public boolean matches(JobInfo job) {
        JobInfo.ArrayTask array = job.array();
        if ((!jobIds.isEmpty() || !arrayTasks.isEmpty()) && !jobIds.contains(job.jobId())
                && !(array.arrayJobId() != 0 && jobIds.contains(array.arrayJobId()))
                && !(array.taskId() != null && arrayTasks.contains(array.arrayJobId() + "_" + array.taskId()))) {
            return false;
        }
        if (!users.isEmpty() && !users.contains(job.user())) {
            return false;
        }
        if (!partitions.isEmpty() && !inPartitions(job)) {
            return false;
        }
        return effectiveStates().matches(job);
    }

    private boolean inPartitions(JobInfo job) {
        if (partitions.contains(job.partition())) {
            return true;
        }
        if (!job.pending()) {
            return false;
        }
        return job.submitted().partitions().stream().anyMatch(partitions::contains);
    }
}
