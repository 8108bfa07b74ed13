package dev.gantry.scheduler.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's dependency rules (https://slurm.schedmd.com/sbatch.html#OPT_dependency; slurmctld's
 * test_job_dependency): when each type holds, fails for good, or waits, and what is refused at submit. Pure and
 * stateless.
 */
public final class DependencyPolicy {

    private DependencyPolicy() {}

    /**
     * Submit-time (and scontrol update) check: every job named must be known to the controller, and none may be the
     * job itself. Array job ids and {@code id_task} forms are accepted when the array (task) is known.
     *
     * @param selfJobId the dependent job's id, or 0 when it has none yet (a new submission)
     * @throws InvalidControlException "Job dependency problem", naming the job that does not exist
     */
    public static void checkAtSubmit(Dependency dependency, long selfJobId, DependencyView view) {
        for (DependencyTerm term : dependency.terms()) {
            if (term.type() == DependencyType.SINGLETON) {
                continue;
            }
            DependencyTarget target = term.target();
            if (selfJobId != 0 && target.jobId() == selfJobId) {
                throw Dependency.problem(dependency.toString(), "a job cannot depend on itself (" + target + ")");
            }
            if (view.resolve(target).isEmpty()) {
                throw Dependency.problem(dependency.toString(), "job " + target + " does not exist");
            }
        }
    }

    /**
     * Evaluates a dependency now. A named job the controller no longer knows lifts its term, as slurmctld does
     * ("job is gone, dependency lifted"). With ',' every term must hold and one NEVER makes the whole NEVER; with '?'
     * one SATISFIED term suffices and the whole is NEVER only when every term is.
     */
    public static DependencyResult evaluate(Dependency dependency, DependentJob self, DependencyView view, Instant now) {
        List<DependencyResult.TermStatus> results = new ArrayList<>();
        int satisfied = 0;
        int never = 0;
        for (DependencyTerm term : dependency.terms()) {
            DependencyStatus s = evaluate(term, self, view, now);
            results.add(new DependencyResult.TermStatus(term, s));
            satisfied += s == DependencyStatus.SATISFIED ? 1 : 0;
            never += s == DependencyStatus.NEVER ? 1 : 0;
        }
        int n = results.size();
        DependencyStatus overall;
        if (n == 0) {
            overall = DependencyStatus.SATISFIED;
        } else if (dependency.anyOf()) {
            overall = satisfied > 0 ? DependencyStatus.SATISFIED
                    : never == n ? DependencyStatus.NEVER : DependencyStatus.WAITING;
        } else {
            overall = never > 0 ? DependencyStatus.NEVER
                    : satisfied == n ? DependencyStatus.SATISFIED : DependencyStatus.WAITING;
        }
        return new DependencyResult(overall, results, dependency.anyOf());
    }

    /** One term's status. */
    static DependencyStatus evaluate(DependencyTerm term, DependentJob self, DependencyView view, Instant now) {
        if (term.type() == DependencyType.SINGLETON) {
            return singleton(self, view);
        }
        List<DependencyJob> jobs = view.resolve(term.target());
        if (term.type() == DependencyType.AFTER_CORR && self.arrayTaskId() >= 0) {
            List<DependencyJob> mate = view.resolve(DependencyTarget.task(term.target().jobId(), self.arrayTaskId()));
            if (!mate.isEmpty()) {
                jobs = mate;
            }
        }
        if (jobs.isEmpty()) {
            return DependencyStatus.SATISFIED; // the job is gone: dependency lifted
        }
        boolean anyPending = jobs.stream().anyMatch(DependencyJob::pending);
        boolean allEnded = jobs.stream().allMatch(DependencyJob::ended);
        boolean allSucceeded = jobs.stream().allMatch(DependencyJob::succeeded);
        return switch (term.type()) {
            case AFTER -> anyPending ? DependencyStatus.WAITING : afterDelay(term, jobs, now);
            case AFTER_ANY -> allEnded ? DependencyStatus.SATISFIED : DependencyStatus.WAITING;
            case AFTER_OK, AFTER_CORR -> !allEnded ? DependencyStatus.WAITING
                    : allSucceeded ? DependencyStatus.SATISFIED : DependencyStatus.NEVER;
            case AFTER_NOT_OK -> !allEnded ? DependencyStatus.WAITING
                    : allSucceeded ? DependencyStatus.NEVER : DependencyStatus.SATISFIED;
            case SINGLETON -> throw new IllegalStateException();
        };
    }

    /** after:id+minutes: the delay runs from the (latest) start, or from the cancel of a job that never started. */
    private static DependencyStatus afterDelay(DependencyTerm term, List<DependencyJob> jobs, Instant now) {
        if (term.delayMinutes() == 0) {
            return DependencyStatus.SATISFIED;
        }
        Instant latest = null;
        for (DependencyJob j : jobs) {
            if (j.startTime() != null && (latest == null || j.startTime().isAfter(latest))) {
                latest = j.startTime();
            }
        }
        if (latest == null) {
            return DependencyStatus.SATISFIED; // nothing to count from: it can only have been cancelled
        }
        return now.isBefore(latest.plusSeconds(term.delayMinutes() * 60)) ? DependencyStatus.WAITING
                : DependencyStatus.SATISFIED;
    }

    /**
     * singleton: waits while another job of the same name and user runs or is suspended, or pends with a lower job id
     * (so that same-named jobs run one at a time, in submission order). It never fails.
     */
    private static DependencyStatus singleton(DependentJob self, DependencyView view) {
        for (DependencyJob other : view.sameNameAndUser(self.user(), self.name())) {
            if (other.jobId() == self.jobId()) {
                continue;
            }
            boolean active = other.state().holdsResources() && !other.completing();
            if (active || (other.pending() && other.jobId() < self.jobId())) {
                return DependencyStatus.WAITING;
            }
        }
        return DependencyStatus.SATISFIED;
    }
}
