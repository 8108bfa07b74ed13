package dev.gantry.scheduler.api;

import dev.gantry.api.v1.Job;

/**
 * What is taken out of a job's API form for a caller who sees it but not in full
 * ({@link dev.gantry.scheduler.access.Visibility#seesJobInFull} decides who that is). An adapter: it edits the message
 * the answer carries, so it lives with the other mappings rather than in the pure {@code access} package.
 */
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
