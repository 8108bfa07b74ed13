package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.preempt.PreemptSettings;
import java.time.Instant;

/**
 * Jobs as the client API answers them at one instant (GetJob, ListJobs, WatchJobs): the stored form plus what is
 * computed when answering — the run time so far ({@link JobProtos#answer}), when and by which pass it was last
 * considered ({@link SchedEvals}) and, for a job that holds resources, PreemptEligibleTime ({@link PreemptionView}).
 * Made and used on the controller thread.
 */
final class JobAnswers {

    private final PreemptionView preemption;
    private final SchedEvals evals;
    private final Instant now;

    JobAnswers(PreemptSettings settings, SchedEvals evals, Instant now) {
        this.preemption = new PreemptionView(settings);
        this.evals = evals;
        this.now = now;
    }

    Job of(JobRecord j) {
        return of(j, dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE);
    }

    /** The job in {@code view} ({@link JobProtos#answer(JobRecord, Instant, dev.gantry.api.v1.JobView)}). */
    Job of(JobRecord j, dev.gantry.api.v1.JobView view) {
        Job.Builder b = JobProtos.answer(j, now, view);
        if (view == dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY) {
            return b.build(); // none of what is computed below is a squeue field
        }
        preemption.addTo(b, j);
        evals.addTo(b, j);
        return b.build();
    }
}
