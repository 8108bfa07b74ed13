package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.control.Dependency;
import dev.gantry.scheduler.control.DependencyJob;
import dev.gantry.scheduler.control.DependencyPolicy;
import dev.gantry.scheduler.control.DependencyTarget;
import dev.gantry.scheduler.control.DependencyView;
import dev.gantry.scheduler.control.DependentJob;
import dev.gantry.scheduler.cycle.Eligibility;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dependencies over the controller's state: the view {@link DependencyPolicy} asks, and the check the scheduling
 * pass uses. Parsed dependency strings are cached (they are checked on every pass). Controller thread only.
 */
final class JobDependencies implements DependencyView {

    private final ClusterState state;
    private final JobIndex index;
    private final Map<String, Dependency> parsed = new HashMap<>();

    JobDependencies(ClusterState state, JobIndex index) {
        this.state = state;
        this.index = index;
    }

    Dependency parse(String text) {
        Dependency d = parsed.get(text);
        if (d == null) {
            if (parsed.size() > 10_000) {
                parsed.clear();
            }
            d = Dependency.parse(text);
            parsed.put(text, d);
        }
        return d;
    }

    /**
     * scontrol update Dependency=: checked as at submission, and refused when it would close a loop (a job that,
     * through the dependencies of unfinished jobs, already waits for {@code self}), which would never be satisfied.
     */
    void checkUpdate(String text, long self) {
        Dependency d = parse(text);
        DependencyPolicy.checkAtSubmit(d, self, this);
        java.util.ArrayDeque<Long> todo = new java.util.ArrayDeque<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        d.terms().forEach(t -> todo.add(t.target().jobId()));
        while (!todo.isEmpty()) {
            long id = todo.poll();
            if (!seen.add(id)) {
                continue;
            }
            for (JobRecord j : index.targets(id)) {
                if (j.id() == self) {
                    throw Dependency.problem(text, "job " + id + " already depends on job " + self
                            + " (a dependency loop)");
                }
                if (j.state() == JobState.PENDING && !j.controls().dependency().isEmpty()) {
                    try {
                        parse(j.controls().dependency()).terms().forEach(t -> todo.add(t.target().jobId()));
                    } catch (IllegalArgumentException e) {
                        // a stored dependency that no longer parses names nobody
                    }
                }
            }
        }
    }

    /** The pass's check (a dependency that no longer parses is never satisfied). */
    Eligibility.Dependencies check(Instant now) {
        return job -> {
            Dependency d;
            try {
                d = parse(job.controls().dependency());
            } catch (IllegalArgumentException e) {
                return Eligibility.Verdict.NEVER;
            }
            var self = new DependentJob(job.id(), job.controls().arrayTaskId(), job.user(), job.name());
            return switch (DependencyPolicy.evaluate(d, self, this, now).status()) {
                case SATISFIED -> Eligibility.Verdict.SATISFIED;
                case WAITING -> Eligibility.Verdict.WAITING;
                case NEVER -> Eligibility.Verdict.NEVER;
            };
        };
    }

    @Override
    public List<DependencyJob> resolve(DependencyTarget target) {
        List<DependencyJob> out = new ArrayList<>();
        if (target.arrayTaskId() >= 0) {
            for (JobRecord j : index.targets(target.jobId())) {
                if (j.controls().arrayTaskId() == target.arrayTaskId()) {
                    out.add(view(j));
                }
            }
            return out;
        }
        for (JobRecord j : index.targets(target.jobId())) {
            out.add(view(j));
        }
        return out;
    }

    @Override
    public List<DependencyJob> sameNameAndUser(String user, String name) {
        List<DependencyJob> out = new ArrayList<>();
        for (JobRecord j : state.jobs()) {
            if (j.user().equals(user) && j.name().equals(name)) {
                out.add(view(j));
            }
        }
        return out;
    }

    private static DependencyJob view(JobRecord j) {
        Instant started = j.startTime() != null ? j.startTime()
                : j.state() == JobState.CANCELLED ? j.endTime() : null;
        return new DependencyJob(j.id(), j.state(), j.completing(), started);
    }
}
