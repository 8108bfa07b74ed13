package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a job id given to a command names: the job, or every known task when it is an array's id. Controller thread
 * only.
 */
final class JobIndex {

    private final ClusterState state;
    /** Array id → its tasks' job ids. */
    private final Map<Long, List<Long>> arrays = new HashMap<>();

    JobIndex(ClusterState state) {
        this.state = state;
    }

    /** A job entered the state: an array task is indexed by its array id. */
    void add(JobRecord job) {
        if (job.controls().isArrayTask()) {
            arrays.computeIfAbsent(job.controls().arrayJobId(), k -> new ArrayList<>()).add(job.id());
        }
    }

    /** The jobs {@code id} names now; empty when none is known. */
    List<JobRecord> targets(long id) {
        List<Long> tasks = arrays.get(id);
        if (tasks != null) {
            return tasks.stream().map(state::job).filter(Objects::nonNull).toList();
        }
        JobRecord j = state.job(id);
        return j == null ? List.of() : List.of(j);
    }

    /** Drops the tasks the state forgot. */
    void prune() {
        arrays.values().forEach(tasks -> tasks.removeIf(id -> state.job(id) == null));
        arrays.values().removeIf(List::isEmpty);
    }
}
