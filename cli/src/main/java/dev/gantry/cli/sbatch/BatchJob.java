package dev.gantry.cli.sbatch;

import java.util.List;

/**
 * A batch job as sbatch submits it, its values checked and parsed: what the controller's JobSpec carries. A count or
 * limit the user did not give is null, for the controller to default; a text option not given is null too.
 *
 * @param name -J, or the default name
 * @param script the batch script's text
 * @param argv the script's arguments
 * @param workDir -D resolved against the submit directory, else the submit directory
 * @param stdoutPath -o's pattern
 * @param stderrPath -e's pattern
 * @param partitions -p, in order
 * @param minNodes -N's minimum
 * @param maxNodes -N's maximum (min-max form)
 * @param ntasks -n
 * @param cpusPerTask -c
 * @param memPerNodeMb --mem in MiB
 * @param memPerCpuMb --mem-per-cpu in MiB
 * @param ntasksPerNode --ntasks-per-node
 * @param timeLimitSeconds -t in seconds; -1 UNLIMITED
 * @param submitter who submits, from where
 * @param selection the node-selection options
 * @param controls the job-control options
 */
public record BatchJob(String name, String script, List<String> argv, String workDir, String stdoutPath,
                         String stderrPath, List<String> partitions, Integer minNodes, Integer maxNodes, Integer ntasks,
                         Integer cpusPerTask, Long memPerNodeMb, Long memPerCpuMb, Integer ntasksPerNode,
                         Long timeLimitSeconds, Submitter submitter, BatchNodeSelection selection, BatchControls controls) {

    public BatchJob {
        argv = List.copyOf(argv);
        partitions = List.copyOf(partitions);
    }

    /** This request with {@code controls} in place of its own. */
    public BatchJob withControls(BatchControls controls) {
        return new BatchJob(name, script, argv, workDir, stdoutPath, stderrPath, partitions, minNodes, maxNodes,
                ntasks, cpusPerTask, memPerNodeMb, memPerCpuMb, ntasksPerNode, timeLimitSeconds, submitter, selection,
                controls);
    }

    /** This request writing its output to {@code stdoutPath}. */
    public BatchJob withStdoutPath(String stdoutPath) {
        return new BatchJob(name, script, argv, workDir, stdoutPath, stderrPath, partitions, minNodes, maxNodes,
                ntasks, cpusPerTask, memPerNodeMb, memPerCpuMb, ntasksPerNode, timeLimitSeconds, submitter, selection,
                controls);
    }
}
