package dev.gantry.scheduler.control;

import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** An in-memory controller view: plain jobs, array tasks and job names, as tests set them up. */
final class FakeDependencyView implements DependencyView {

    private record Entry(DependencyJob job, long arrayJobId, int taskId, String user, String name) {}

    private final List<Entry> entries = new ArrayList<>();

    FakeDependencyView job(long id, JobState state) {
        return job(id, state, false, state == JobState.PENDING ? null : Instant.EPOCH);
    }

    FakeDependencyView job(long id, JobState state, boolean completing, Instant start) {
        entries.add(new Entry(new DependencyJob(id, state, completing, start), 0, -1, "alice", "job" + id));
        return this;
    }

    FakeDependencyView named(long id, JobState state, String user, String name) {
        entries.add(new Entry(new DependencyJob(id, state, false, null), 0, -1, user, name));
        return this;
    }

    /** Task {@code taskId} of array {@code arrayJobId}, with its own job id. */
    FakeDependencyView task(long arrayJobId, int taskId, long ownId, JobState state) {
        entries.add(new Entry(new DependencyJob(ownId, state, false, state == JobState.PENDING ? null : Instant.EPOCH),
                arrayJobId, taskId, "alice", "array"));
        return this;
    }

    @Override
    public List<DependencyJob> resolve(DependencyTarget t) {
        List<DependencyJob> out = new ArrayList<>();
        for (Entry e : entries) {
            boolean match = switch (t.arrayTaskId()) {
                case DependencyTarget.WHOLE_JOB -> e.job().jobId() == t.jobId() && e.arrayJobId() == 0
                        || e.arrayJobId() == t.jobId();
                case DependencyTarget.ALL_TASKS -> e.arrayJobId() == t.jobId();
                default -> e.arrayJobId() == t.jobId() && e.taskId() == t.arrayTaskId();
            };
            if (match) {
                out.add(e.job());
            }
        }
        return out;
    }

    @Override
    public List<DependencyJob> sameNameAndUser(String user, String name) {
        return entries.stream().filter(e -> e.user().equals(user) && e.name().equals(name)).map(Entry::job).toList();
    }
}
