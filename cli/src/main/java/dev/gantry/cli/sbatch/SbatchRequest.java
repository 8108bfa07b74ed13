package dev.gantry.cli.sbatch;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.common.units.SlurmMemory;
import dev.gantry.common.units.SlurmTime;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A batch job as sbatch is about to submit it: the script, its arguments and the merged options. Turns
 * into the controller's {@link JobSpec}, checking each value the way sbatch does; counts that parse are sent
 * as given, even zero or negative ones, for the controller to accept or refuse by name.
 *
 * @param script the batch script
 * @param scriptArguments arguments passed to the script
 * @param defaultName the name when -J is not given: the script's file name, "wrap" or "sbatch"
 * @param options command line merged over the #SBATCH directives
 * @param submitter who submits, from where
 */
public record SbatchRequest(BatchScript script, List<String> scriptArguments, String defaultName,
                         SbatchOptions options, Submitter submitter) {

    public SbatchRequest {
        scriptArguments = List.copyOf(scriptArguments);
    }

    /**
     * The job specification.
     *
     * @throws InvalidSubmissionException with sbatch's message for a value it cannot parse
     */
    public JobSpec toSpec() throws InvalidSubmissionException {
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName(options.jobName() != null ? options.jobName() : defaultName)
                .setScript(script.text())
                .addAllArgv(scriptArguments)
                .setWorkDir(workDir().toString())
                .putAllEnvironment(submitter.environment())
                .setUser(submitter.user())
                .setUid(submitter.uid())
                .setGid(submitter.gid())
                .setSubmitDir(submitter.directory().toString())
                .setSubmitHost(submitter.host());
        if (options.output() != null) {
            spec.setStdoutPath(options.output());
        }
        if (options.error() != null) {
            spec.setStderrPath(options.error());
        }
        if (options.partition() != null) {
            Arrays.stream(options.partition().split(","))
                    .map(String::trim)
                    .filter(p -> !p.isEmpty())
                    .forEach(spec::addPartitions);
        }
        if (options.nodes() != null) {
            setNodes(spec, options.nodes());
        }
        if (options.ntasks() != null) {
            spec.setNtasks(count(options.ntasks(), "--ntasks"));
        }
        if (options.cpusPerTask() != null) {
            spec.setCpusPerTask(count(options.cpusPerTask(), "--cpus-per-task"));
        }
        if (options.mem() != null && options.memPerCpu() != null) {
            throw new InvalidSubmissionException("--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
        }
        if (options.mem() != null) {
            spec.setMemPerNodeMb(memory(options.mem(), "--mem"));
        }
        if (options.memPerCpu() != null) {
            spec.setMemPerCpuMb(memory(options.memPerCpu(), "--mem-per-cpu"));
        }
        if (options.ntasksPerNode() != null) {
            spec.setNtasksPerNode(count(options.ntasksPerNode(), "--ntasks-per-node"));
        }
        ResourceOptions.apply(options, spec, submitter.directory());
        if (options.time() != null) {
            spec.setTimeLimitSeconds(timeLimit(options.time()));
        }
        return spec.build();
    }

    /** -D resolved against the submit directory, else the submit directory. */
    Path workDir() {
        if (options.chdir() == null) {
            return submitter.directory();
        }
        return submitter.directory().resolve(options.chdir()).normalize();
    }

    /** -N: "N" or "min-max". */
    private static void setNodes(JobSpec.Builder spec, String value) throws InvalidSubmissionException {
        String v = value.trim();
        int dash = v.indexOf('-', 1);
        if (dash < 0) {
            spec.setMinNodes(count(v, value, "--nodes"));
            return;
        }
        spec.setMinNodes(count(v.substring(0, dash), value, "--nodes"));
        spec.setMaxNodes(count(v.substring(dash + 1), value, "--nodes"));
    }

    private static int count(String value, String option) throws InvalidSubmissionException {
        return count(value.trim(), value, option);
    }

    /** A whole number that fits an int, any sign; otherwise sbatch's "Invalid numeric value" error. */
    private static int count(String digits, String asTyped, String option) throws InvalidSubmissionException {
        try {
            if (digits.isEmpty() || digits.startsWith("+")) {
                throw new NumberFormatException(digits);
            }
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new InvalidSubmissionException("Invalid numeric value \"" + asTyped + "\" for " + option + ".");
        }
    }

    private static long memory(String value, String option) throws InvalidSubmissionException {
        try {
            return SlurmMemory.parseMb(value);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InvalidSubmissionException("Invalid " + option + " specification");
        }
    }

    private static long timeLimit(String value) throws InvalidSubmissionException {
        try {
            return SlurmTime.parseLimitSeconds(value);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InvalidSubmissionException("Invalid --time specification");
        }
    }
}
