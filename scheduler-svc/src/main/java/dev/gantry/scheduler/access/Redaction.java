package dev.gantry.scheduler.access;

import dev.gantry.api.v1.Job;

/** What is taken out of a job for a caller who sees it but not in full ({@link Visibility#seesJobInFull}). Pure. */
public final class Redaction {
    private Redaction() {}

    /**
     * The job without its batch script and submitted environment (the spec's {@code script} and {@code environment}
     * emptied); everything else, the arguments included, as it was.
     */
    public static Job withoutPrivateParts(Job job) {
        if (job.getSpec().getScript().isEmpty() && job.getSpec().getEnvironmentCount() == 0) {
            return job;
        }
        return job.toBuilder().setSpec(job.getSpec().toBuilder().clearScript().clearEnvironment()).build();
    }
}
