package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.Set;
import java.util.stream.Collectors;

/** squeue's filters. With no states given: jobs not finished, plus finished ones still within MinJobAge. */
public record JobQuery(Set<Long> ids, Set<String> users, Set<String> partitions, Set<JobState> states) {

    public static JobQuery of(ListJobsRequest r) {
        return new JobQuery(Set.copyOf(r.getJobIdsList()), Set.copyOf(r.getUsersList()), Set.copyOf(r.getPartitionsList()),
                r.getStatesList().stream().map(JobProtos::state).collect(Collectors.toUnmodifiableSet()));
    }

    public boolean matches(JobRecord j) {
        return (ids.isEmpty() || ids.contains(j.id()))
                && (users.isEmpty() || users.contains(j.user()))
                && (partitions.isEmpty() || partitions.contains(j.partition()) || j.partitions().stream().anyMatch(partitions::contains))
                && (states.isEmpty() || states.contains(j.state()));
    }
}
