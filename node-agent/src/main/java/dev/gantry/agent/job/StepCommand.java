package dev.gantry.agent.job;

import dev.gantry.common.hostlist.Hostlist;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How one task of a job step (srun) starts on a node, as a chain of execs like the batch script's
 * ({@link LaunchCommand}) but without the status-keeping shell: join the job's cgroups (so that suspending or
 * killing the job stops or kills the step too), become the job's user, lead its own session, then exec the
 * step's command directly, its stdout and stderr being pipes to the agent. Pure: builds strings only.
 */
public final class StepCommand {

    private StepCommand() {}

    /** What the step credential's script_sha256 covers: the command's arguments, each followed by a NUL byte. */
    public static byte[] digestInput(List<String> argv) {
        StringBuilder b = new StringBuilder();
        argv.forEach(a -> b.append(a).append('\0'));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param joinFiles the job's cgroup.procs files (empty for process-group containment)
     * @param runAs the user to become, or empty to stay the agent's user
     */
    public static List<String> argv(LaunchCommand.Tools tools, List<String> joinFiles, Optional<JobUser> runAs, List<String> command) {
        List<String> cmd = new ArrayList<>();
        if (!joinFiles.isEmpty()) {
            cmd.addAll(List.of(tools.sh(), "-c", LaunchCommand.JOIN, "gantry-join", Integer.toString(joinFiles.size())));
            cmd.addAll(joinFiles);
        }
        runAs.ifPresent(u -> cmd.addAll(List.of(tools.setpriv(), "--reuid=" + u.uid(), "--regid=" + u.gid(), "--init-groups")));
        cmd.add(tools.setsid());
        cmd.addAll(command);
        return cmd;
    }

    /**
     * A step task's environment: srun's, then the step's variables as slurmstepd sets them
     * (<a href="https://slurm.schedmd.com/srun.html#SECTION_OUTPUT-ENVIRONMENT-VARIABLES">srun's output
     * environment</a>), each with its GANTRY_ twin.
     *
     * @param stepNodes the step's nodes, in order; {@code nodeId} is this node's index among them
     */
    public static Map<String, String> environment(Map<String, String> srunEnvironment, long jobId, String stepId,
            List<String> stepNodes, int nodeId, String nodeName, int taskId, int localId, int numTasks) {
        Map<String, String> env = new TreeMap<>(srunEnvironment);
        env.putIfAbsent("PATH", JobEnvironment.DEFAULT_PATH);
        Map<String, String> vars = new TreeMap<>();
        String nodeList = Hostlist.compress(stepNodes);
        vars.put("SLURM_JOB_ID", Long.toString(jobId));
        vars.put("SLURM_JOBID", Long.toString(jobId));
        vars.put("SLURM_STEP_ID", stepId);
        vars.put("SLURM_STEPID", stepId);
        vars.put("SLURM_STEP_NODELIST", nodeList);
        vars.put("SLURM_STEP_NUM_NODES", Integer.toString(stepNodes.size()));
        vars.put("SLURM_STEP_NUM_TASKS", Integer.toString(numTasks));
        vars.put("SLURM_NTASKS", Integer.toString(numTasks));
        vars.put("SLURM_NPROCS", Integer.toString(numTasks));
        vars.put("SLURM_NODEID", Integer.toString(nodeId));
        vars.put("SLURM_PROCID", Integer.toString(taskId));
        vars.put("SLURM_LOCALID", Integer.toString(localId));
        vars.put("SLURMD_NODENAME", nodeName);
        vars.forEach((name, value) -> {
            env.put(name, value);
            env.put(JobEnvironment.twin(name), value);
        });
        return env;
    }
}
