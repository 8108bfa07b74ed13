package dev.gantry.scheduler.model;

import java.time.Instant;

/**
 * What decides when a pending job may be considered, and what it is charged to: account and QOS, nice, hold,
 * begin time, dependencies, array membership and requeue. Immutable; change with the withers.
 *
 * @param nice subtracted from the computed priority
 * @param requeue may be requeued (--requeue, or JobRequeue=1)
 * @param restartCount times it went back to the queue
 * @param beginTime not eligible before it; null = at submit
 * @param dependency the dependencies not yet satisfied, as Slurm writes them; empty = none
 * @param arrayJobId the array's id (its first task's job id); 0 = not an array task
 * @param arrayTaskId the task's index; -1 = not an array task
 * @param arraySpec the array's --array value as given (shown by scontrol); empty for non-array jobs
 * @param arrayMaxRunning the array's %n: at most this many of its tasks run at once; 0 = no limit
 * @param adminPriority the priority was set by an administrator and is not recomputed
 */
public record JobControls(String account, String qos, int nice, boolean requeue, int restartCount, Hold hold,
        Instant beginTime, String dependency, long arrayJobId, int arrayTaskId, String arraySpec, int arrayMaxRunning,
        boolean adminPriority) {

    /** A pending job's hold (scontrol hold/uhold/release). */
    public enum Hold { NONE, USER, ADMIN }

    public static final JobControls NONE = new JobControls("", "normal", 0, true, 0, Hold.NONE, null, "", 0, -1, "", 0,
            false);

    public JobControls {
        account = account == null ? "" : account;
        qos = qos == null ? "" : qos;
        hold = hold == null ? Hold.NONE : hold;
        dependency = dependency == null ? "" : dependency;
        arraySpec = arraySpec == null ? "" : arraySpec;
    }

    public boolean isArrayTask() {
        return arrayJobId > 0;
    }

    public JobControls withAccount(String v) {
        return new JobControls(v, qos, nice, requeue, restartCount, hold, beginTime, dependency, arrayJobId, arrayTaskId,
                arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withQos(String v) {
        return new JobControls(account, v, nice, requeue, restartCount, hold, beginTime, dependency, arrayJobId,
                arrayTaskId, arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withNice(int v) {
        return new JobControls(account, qos, v, requeue, restartCount, hold, beginTime, dependency, arrayJobId,
                arrayTaskId, arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withHold(Hold v) {
        return new JobControls(account, qos, nice, requeue, restartCount, v, beginTime, dependency, arrayJobId,
                arrayTaskId, arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withDependency(String v) {
        return new JobControls(account, qos, nice, requeue, restartCount, hold, beginTime, v, arrayJobId, arrayTaskId,
                arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withRestart() {
        return new JobControls(account, qos, nice, requeue, restartCount + 1, hold, beginTime, dependency, arrayJobId,
                arrayTaskId, arraySpec, arrayMaxRunning, adminPriority);
    }

    public JobControls withAdminPriority(boolean v) {
        return new JobControls(account, qos, nice, requeue, restartCount, hold, beginTime, dependency, arrayJobId,
                arrayTaskId, arraySpec, arrayMaxRunning, v);
    }

    /** The same controls for task {@code index} of array {@code arrayId}. */
    public JobControls forTask(long arrayId, int index, String spec, int maxRunning) {
        return new JobControls(account, qos, nice, requeue, restartCount, hold, beginTime, dependency, arrayId, index,
                spec, maxRunning, adminPriority);
    }
}
