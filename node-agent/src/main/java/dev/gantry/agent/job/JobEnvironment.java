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
 * submitted ones of the same name. Pure.
 */
public final class JobEnvironment {

    /** Used when the submit environment has no PATH, so that {@code #!/usr/bin/env bash} scripts still start. */
    public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    private JobEnvironment() {}

    /**
     * @param nodes every node of the allocation, as the credential names them
     * @param nodeName this node
     */
    public static Map<String, String> build(LaunchOrder order, JobUser user, List<String> nodes, String nodeName) {
        Map<String, String> env = new TreeMap<>(order.environment());
        env.putIfAbsent("PATH", DEFAULT_PATH);
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
        vars.put("SLURM_JOB_USER", user.name());
        vars.put("SLURM_JOB_UID", Long.toString(user.uid()));
        vars.put("SLURM_JOB_GID", Long.toString(user.gid()));
        vars.put("SLURMD_NODENAME", nodeName);
        vars.put("SLURM_NODEID", "0");
        vars.put("SLURM_PROCID", "0");
        vars.put("SLURM_LOCALID", "0");
        return vars;
    }

    /** SLURM_JOB_ID → GANTRY_JOB_ID, SLURMD_NODENAME → GANTRY_NODENAME. */
    static String twin(String slurmName) {
        return "GANTRY_" + slurmName.substring(slurmName.indexOf('_') + 1);
    }
}
