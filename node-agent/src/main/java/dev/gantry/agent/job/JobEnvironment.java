package dev.gantry.agent.job;

import dev.gantry.common.hostlist.Hostlist;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The environment a batch script starts with: the submit environment (which replaces the agent's own), then
 * the variables slurmd sets for a batch job
 * (<a href="https://slurm.schedmd.com/sbatch.html#SECTION_OUTPUT-ENVIRONMENT-VARIABLES">sbatch's output
 * environment</a>), each also under a {@code GANTRY_} twin with the same suffix ({@code SLURM_JOB_ID} and
 * {@code GANTRY_JOB_ID}; {@code SLURMD_NODENAME} and {@code GANTRY_NODENAME}). The job's variables win over
 * submitted ones of the same name. The variables set only for some jobs ({@link #SOMETIMES_SET}: the
 * {@code SLURM_ARRAY_*} of an array task, {@code SLURM_JOB_ACCOUNT} and {@code SLURM_JOB_QOS} when the job has
 * them, {@code SLURM_RESTART_COUNT} once it was restarted) and their twins are removed from the submit
 * environment, so that a job submitted from inside an array task is not taken for one. Pure.
 */
public final class JobEnvironment {

    /** Used when the submit environment has no PATH, so that {@code #!/usr/bin/env bash} scripts still start. */
    public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    /** The Slurm names of the variables a job has only in some cases; see the class comment. */
    static final List<String> SOMETIMES_SET = List.of("SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
            "SLURM_JOB_ACCOUNT", "SLURM_JOB_QOS", "SLURM_RESTART_COUNT");

    private JobEnvironment() {}

    /**
     * @param nodes every node of the allocation, as the credential names them
     * @param nodeName this node
     */
    public static Map<String, String> build(LaunchOrder order, JobUser user, List<String> nodes, String nodeName) {
        Map<String, String> env = new TreeMap<>(order.environment());
        env.putIfAbsent("PATH", DEFAULT_PATH);
        for (String name : SOMETIMES_SET) {
            env.remove(name);
            env.remove(twin(name));
        }
        jobVariables(order, user, nodes, nodeName).forEach((name, value) -> {
            env.put(name, value);
            env.put(twin(name), value);
        });
        return env;
    }

    /** The Slurm names of the variables the agent sets, in the order sbatch documents them. */
    static Map<String, String> jobVariables(LaunchOrder order, JobUser user, List<String> nodes, String nodeName) {
        String id = Long.toString(order.jobId());
        String nodeList = Hostlist.compress(nodes.isEmpty() ? List.of(nodeName) : nodes);
        String nodeCount = Integer.toString(Math.max(nodes.size(), 1));
        String tasks = Integer.toString(order.numTasks() > 0 ? order.numTasks() : Math.max(nodes.size(), 1));
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("SLURM_JOB_ID", id);
        vars.put("SLURM_JOBID", id);
        vars.put("SLURM_JOB_NAME", order.jobName());
        order.array().ifPresent(a -> {
            vars.put("SLURM_ARRAY_JOB_ID", Long.toString(a.arrayJobId()));
            vars.put("SLURM_ARRAY_TASK_ID", Integer.toString(a.taskId()));
            vars.put("SLURM_ARRAY_TASK_COUNT", Integer.toString(a.taskCount()));
            vars.put("SLURM_ARRAY_TASK_MIN", Integer.toString(a.taskMin()));
            vars.put("SLURM_ARRAY_TASK_MAX", Integer.toString(a.taskMax()));
            vars.put("SLURM_ARRAY_TASK_STEP", Integer.toString(a.taskStep()));
        });
        vars.put("SLURM_JOB_NODELIST", nodeList);
        vars.put("SLURM_NODELIST", nodeList);
        vars.put("SLURM_NNODES", nodeCount);
        vars.put("SLURM_JOB_NUM_NODES", nodeCount);
        vars.put("SLURM_NTASKS", tasks);
        vars.put("SLURM_NPROCS", tasks);
        vars.put("SLURM_CPUS_ON_NODE", Integer.toString(Math.max(order.cpusOnNode(), 1)));
        if (order.memoryMb() > 0) {
            vars.put("SLURM_MEM_PER_NODE", Long.toString(order.memoryMb()));
        }
        vars.put("SLURM_SUBMIT_DIR", order.submitDir().isEmpty() ? order.workDir() : order.submitDir());
        vars.put("SLURM_SUBMIT_HOST", order.submitHost());
        vars.put("SLURM_JOB_PARTITION", order.partition());
        if (!order.account().isEmpty()) {
            vars.put("SLURM_JOB_ACCOUNT", order.account());
        }
        if (!order.qos().isEmpty()) {
            vars.put("SLURM_JOB_QOS", order.qos());
        }
        vars.put("SLURM_JOB_USER", user.name());
        vars.put("SLURM_JOB_UID", Long.toString(user.uid()));
        vars.put("SLURM_JOB_GID", Long.toString(user.gid()));
        vars.put("SLURMD_NODENAME", nodeName);
        vars.put("SLURM_NODEID", "0");
        vars.put("SLURM_PROCID", "0");
        vars.put("SLURM_LOCALID", "0");
        if (order.restartCount() > 0) {
            vars.put("SLURM_RESTART_COUNT", Integer.toString(order.restartCount()));
        }
        return vars;
    }

    /** SLURM_JOB_ID → GANTRY_JOB_ID, SLURMD_NODENAME → GANTRY_NODENAME. */
    static String twin(String slurmName) {
        return "GANTRY_" + slurmName.substring(slurmName.indexOf('_') + 1);
    }
}
