package dev.gantry.agent.job;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What LaunchJob asks this node to run, before its credential is checked: the request's fields as plain values.
 * Counts the controller leaves at zero take the defaults of {@link JobEnvironment}.
 *
 * @param memoryMb this node's memory allocation in MiB, 0 = not limited
 * @param timeLimitSeconds -1 = UNLIMITED; the controller enforces it, the agent only passes it on
 * @param coreIds CR_Core: the cores the job is bound to on this node; empty = not bound
 * @param array the task's place in its job array; empty for a job that is not an array task
 * @param account the job's account (SLURM_JOB_ACCOUNT); empty = none
 * @param qos the job's QOS (SLURM_JOB_QOS); empty = none
 * @param restartCount how many times the job was requeued or restarted (SLURM_RESTART_COUNT), 0 = never
 * @param startSuspended the controller holds the job suspended from its start: it starts stopped
 */
public record LaunchOrder(
        long jobId,
        String jobName,
        String script,
        List<String> argv,
        String workDir,
        String stdoutPattern,
        String stderrPattern,
        Map<String, String> environment,
        String partition,
        int numTasks,
        int cpusOnNode,
        long memoryMb,
        String submitDir,
        String submitHost,
        long timeLimitSeconds,
        List<Integer> coreIds,
        Optional<ArrayTask> array,
        String account,
        String qos,
        int restartCount,
        boolean startSuspended) {

    /**
     * A job array task's place in its array, as the controller computed it
     * (<a href="https://slurm.schedmd.com/job_array.html">Slurm's job arrays</a>).
     *
     * @param arrayJobId the array's job id (SLURM_ARRAY_JOB_ID, {@code %A}): the id sbatch printed for the array
     * @param taskId this task's index (SLURM_ARRAY_TASK_ID, {@code %a})
     * @param taskCount how many tasks the array has
     * @param taskMin its lowest index
     * @param taskMax its highest index
     * @param taskStep the step between its indexes
     */
    public record ArrayTask(long arrayJobId, int taskId, int taskCount, int taskMin, int taskMax, int taskStep) {}

    public LaunchOrder {
        argv = List.copyOf(argv);
        coreIds = List.copyOf(coreIds);
        environment = Map.copyOf(environment);
    }

    /** The first malformed field, as INVALID_ARGUMENT reports it; empty when the order is well formed. */
    public Optional<LaunchOutcome.InvalidRequest> problem() {
        if (jobId <= 0) {
            return invalid("job_id", "job_id must be positive");
        }
        if (script.isEmpty()) {
            return invalid("script", "script is missing");
        }
        if (!workDir.startsWith("/")) {
            return invalid("work_dir", "work_dir must be an absolute path, got '" + workDir + "'");
        }
        for (String arg : argv) {
            if (arg.indexOf('\0') >= 0) {
                return invalid("argv", "argv contains a NUL character");
            }
        }
        for (Map.Entry<String, String> e : environment.entrySet()) {
            String key = e.getKey();
            if (key.isEmpty() || key.indexOf('=') >= 0 || key.indexOf('\0') >= 0 || e.getValue().indexOf('\0') >= 0) {
                return invalid("environment", "environment has an invalid entry '" + key + "'");
            }
        }
        for (int core : coreIds) {
            if (core < 0) {
                return invalid("core_ids", "core_ids must not be negative, got " + core);
            }
        }
        if (array.isPresent() && (array.get().arrayJobId() <= 0 || array.get().taskId() < 0)) {
            return invalid("array", "array needs a positive array_job_id and a task_id of 0 or more");
        }
        if (account.indexOf('\0') >= 0) {
            return invalid("account", "account contains a NUL character");
        }
        if (qos.indexOf('\0') >= 0) {
            return invalid("qos", "qos contains a NUL character");
        }
        if (restartCount < 0) {
            return invalid("restart_count", "restart_count must not be negative, got " + restartCount);
        }
        if (workDir.indexOf('\0') >= 0) {
            return invalid("work_dir", "work_dir contains a NUL character");
        }
        if (stdoutPattern.indexOf('\0') >= 0) {
            return invalid("stdout_path", "stdout_path contains a NUL character");
        }
        if (stderrPattern.indexOf('\0') >= 0) {
            return invalid("stderr_path", "stderr_path contains a NUL character");
        }
        return Optional.empty();
    }

    private static Optional<LaunchOutcome.InvalidRequest> invalid(String field, String message) {
        return Optional.of(new LaunchOutcome.InvalidRequest(field, message));
    }
}
