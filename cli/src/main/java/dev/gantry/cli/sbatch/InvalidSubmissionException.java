package dev.gantry.cli.sbatch;

import java.util.List;

/** The job cannot be submitted as given; {@link #lines()} are sbatch's error lines, without the "sbatch: error: " prefix. */
public final class InvalidSubmissionException extends Exception {

    private final List<String> lines;

    public InvalidSubmissionException(List<String> lines) {
        super(String.join("\n", lines));
        this.lines = List.copyOf(lines);
    }

    public InvalidSubmissionException(String line) {
        this(List.of(line));
    }

    public List<String> lines() {
        return lines;
    }
}
