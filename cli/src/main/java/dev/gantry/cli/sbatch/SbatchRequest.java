package dev.gantry.cli.sbatch;

import dev.gantry.common.units.SlurmMemory;
import dev.gantry.common.units.SlurmTime;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A batch job as sbatch is about to submit it: the script, its arguments and the merged options. Turns
 * into a {@link BatchJob}, checking each value the way sbatch does; counts that parse are sent
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
     * The job to submit, without job-control options ({@link ControlOptions#applyTo} adds them).
     *
     * @throws InvalidSubmissionException with sbatch's message for a value it cannot parse
     */
    public BatchJob toRequest() throws InvalidSubmissionException {
        List<String> partitions = List.of();
        if (options.partition() != null) {
            partitions = Arrays.stream(options.partition().split(","))
                    .map(String::trim)
                    .filter(p -> !p.isEmpty())
                    .toList();
        }
        Integer minNodes = null;
        Integer maxNodes = null;
        if (options.nodes() != null) {
            String v = options.nodes().trim();
            int dash = v.indexOf('-', 1);
            minNodes = count(dash < 0 ? v : v.substring(0, dash), options.nodes(), "--nodes");
            maxNodes = dash < 0 ? null : count(v.substring(dash + 1), options.nodes(), "--nodes");
        }
        Integer ntasks = options.ntasks() != null ? count(options.ntasks(), "--ntasks") : null;
        Integer cpusPerTask = options.cpusPerTask() != null ? count(options.cpusPerTask(), "--cpus-per-task") : null;
        if (options.mem() != null && options.memPerCpu() != null) {
            throw new InvalidSubmissionException("--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
        }
        Long memPerNode = options.mem() != null ? memory(options.mem(), "--mem") : null;
        Long memPerCpu = options.memPerCpu() != null ? memory(options.memPerCpu(), "--mem-per-cpu") : null;
        Integer ntasksPerNode = options.ntasksPerNode() != null
                ? count(options.ntasksPerNode(), "--ntasks-per-node") : null;
        BatchNodeSelection selection = ResourceOptions.selection(options, submitter.directory());
        Long timeLimit = options.time() != null ? timeLimit(options.time()) : null;
        return new BatchJob(options.jobName() != null ? options.jobName() : defaultName, script.text(),
                scriptArguments, workDir().toString(), options.output(), options.error(), partitions, minNodes,
                maxNodes, ntasks, cpusPerTask, memPerNode, memPerCpu, ntasksPerNode, timeLimit, submitter, selection,
                BatchControls.NONE);
    }

    /** -D resolved against the submit directory, else the submit directory. */
    Path workDir() {
        if (options.chdir() == null) {
            return submitter.directory();
        }
        return submitter.directory().resolve(options.chdir()).normalize();
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
