package dev.gantry.scheduler.control;

/**
 * What happened to the steps of a job, as the store records it (in the group commit, in the order they happened):
 * the steps of running jobs and each job's step numbering survive a controller restart, and leave when the job stops
 * running.
 */
public sealed interface StepChange {

    long jobId();

    /** A new step, numbered {@code step.stepId()}: stored, and the job's numbering moved past it. */
    record Created(StepRegistry.Step step) implements StepChange {
        @Override
        public long jobId() {
            return step.jobId();
        }
    }

    /** The step ended (srun reported it): it leaves; the numbering stays. Idempotent. */
    record Ended(long jobId, int stepId) implements StepChange {}

    /** The job stopped running: all its steps and its numbering leave (a requeued job numbers from 0 again). */
    record JobGone(long jobId) implements StepChange {}
}
