package dev.gantry.scheduler.control;

/**
 * A job-control value (dependency, array, begin time, nice, hold) that Slurm would refuse. {@link #getMessage()} is
 * Slurm's own text, as sbatch/scontrol print it after "Batch job submission failed: " (e.g. "Job dependency
 * problem"); {@link #field()} names the option; {@link #detail()} says what exactly is wrong, for logs and for
 * Gantry's longer messages ({@link #describe()}).
 */
public final class InvalidControlException extends IllegalArgumentException {

    private final String field;
    private final String detail;

    public InvalidControlException(String field, String slurmMessage, String detail) {
        super(slurmMessage);
        this.field = field;
        this.detail = detail == null ? "" : detail;
    }

    /** The option or field at fault: "dependency", "array", "begin", "nice", "hold". */
    public String field() {
        return field;
    }

    /** What exactly is wrong, or "". */
    public String detail() {
        return detail;
    }

    /** "field: Slurm's message: detail", the form SubmissionPolicy's refusals take. */
    public String describe() {
        return field + ": " + getMessage() + (detail.isEmpty() ? "" : ": " + detail);
    }
}
