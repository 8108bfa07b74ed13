package dev.gantry.scheduler.control;

/**
 * The job a dependency term names: {@code 123} (the job; the whole array if 123 is an array job), {@code 123_4}
 * (one array task) or {@code 123_*} (every task of array 123). A singleton term has no target ({@link #NONE}).
 */
public record DependencyTarget(long jobId, int arrayTaskId) {

    /** {@code 123}: the job itself, or the whole array when 123 is an array job id. */
    public static final int WHOLE_JOB = -1;
    /** {@code 123_*}: every task of array 123. */
    public static final int ALL_TASKS = -2;
    /** The target of a singleton term. */
    public static final DependencyTarget NONE = new DependencyTarget(0, WHOLE_JOB);

    public DependencyTarget {
        if (arrayTaskId < ALL_TASKS) {
            throw new IllegalArgumentException("arrayTaskId " + arrayTaskId);
        }
    }

    public static DependencyTarget job(long jobId) {
        return new DependencyTarget(jobId, WHOLE_JOB);
    }

    public static DependencyTarget task(long arrayJobId, int taskId) {
        return new DependencyTarget(arrayJobId, taskId);
    }

    public static DependencyTarget allTasks(long arrayJobId) {
        return new DependencyTarget(arrayJobId, ALL_TASKS);
    }

    /** As Slurm writes it: 123, 123_4 or 123_*. */
    @Override
    public String toString() {
        return switch (arrayTaskId) {
            case WHOLE_JOB -> Long.toString(jobId);
            case ALL_TASKS -> jobId + "_*";
            default -> jobId + "_" + arrayTaskId;
        };
    }
}
