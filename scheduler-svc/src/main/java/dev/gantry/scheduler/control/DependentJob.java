package dev.gantry.scheduler.control;

/**
 * The job whose dependency is evaluated.
 *
 * @param jobId its id
 * @param arrayTaskId its array task id, or -1 when it is not an array task (aftercorr pairs tasks by this id)
 * @param user its owner (singleton)
 * @param name its job name (singleton)
 */
public record DependentJob(long jobId, int arrayTaskId, String user, String name) {
}
