package dev.gantry.scheduler.control;

import dev.gantry.scheduler.model.JobState;
import java.time.Instant;

/**
 * What a dependency needs to know of a job it names, or of a job a singleton competes with.
 *
 * @param jobId the job's id (an array task's own id)
 * @param state its base state
 * @param completing true while its processes are still being killed (squeue CG): not yet "completed" for Slurm
 * @param startTime when it started; for a job cancelled before it started, when it was cancelled; null if neither
 */
public record DependencyJob(long jobId, JobState state, boolean completing, Instant startTime) {

    boolean pending() {
        return state == JobState.PENDING;
    }

    /** Slurm's IS_JOB_COMPLETED: finished and no longer completing. */
    boolean ended() {
        return state.isFinished() && !completing;
    }

    /** Slurm's IS_JOB_COMPLETE: ended COMPLETED (exit code 0). */
    boolean succeeded() {
        return ended() && state == JobState.COMPLETED;
    }
}
