package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.JobView;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * squeue's filters and the view answered. With no states given: jobs not finished, plus finished ones still within
 * MinJobAge. Ids and array ids together mean "either": a job named in {@code ids} or a member of one of
 * {@code arrayIds} (squeue 12,14_3 asks for job 12 and the array 14).
 *
 * @param view what each job carries; never UNSPECIFIED (that is FULL)
 */
public record JobQuery(Set<Long> ids, Set<String> users, Set<String> partitions, Set<JobState> states,
        Set<Long> arrayIds, JobView view) {

    public JobQuery {
        view = view == JobView.JOB_VIEW_UNSPECIFIED ? JobView.JOB_VIEW_FULL : view;
    }

    /** Every job in the FULL view: the filters of the API's other listings (sprio). */
    public JobQuery(Set<Long> ids, Set<String> users, Set<String> partitions, Set<JobState> states) {
        this(ids, users, partitions, states, Set.of(), JobView.JOB_VIEW_FULL);
    }

    public static JobQuery of(ListJobsRequest r) {
        return new JobQuery(Set.copyOf(r.getJobIdsList()), Set.copyOf(r.getUsersList()), Set.copyOf(r.getPartitionsList()),
                r.getStatesList().stream().map(JobProtos::state).collect(Collectors.toUnmodifiableSet()),
                Set.copyOf(r.getArrayJobIdsList()), r.getView());
    }

    public boolean matches(JobRecord j) {
        return ((ids.isEmpty() && arrayIds.isEmpty()) || ids.contains(j.id())
                        || (j.controls().isArrayTask() && arrayIds.contains(j.controls().arrayJobId())))
                && (users.isEmpty() || users.contains(j.user()))
                && (partitions.isEmpty() || partitions.contains(j.partition()) || j.partitions().stream().anyMatch(partitions::contains))
                && (states.isEmpty() || states.contains(j.state()));
    }

    /**
     * A fingerprint of the filters and view, carried in page tokens so that a token is used only with the query it
     * was issued for. Independent of set iteration order.
     */
    public long fingerprint() {
        long h = 17;
        h = 31 * h + ids.hashCode();
        h = 31 * h + users.hashCode();
        h = 31 * h + partitions.hashCode();
        h = 31 * h + states.stream().mapToInt(s -> s.name().hashCode()).sum();
        h = 31 * h + arrayIds.hashCode();
        h = 31 * h + view.getNumber();
        return h;
    }
}
