package dev.gantry.agent.job;

import java.nio.file.Path;

/**
 * Where a batch script's stdout and stderr go. Relative patterns are relative to the job's work_dir; the
 * default stdout is {@code slurm-%j.out}; an empty stderr pattern means stdout's file ({@link #merged()}).
 * Pure: resolves names only, opens nothing.
 */
public record OutputFiles(Path stdout, Path stderr) {

    public static final String DEFAULT_STDOUT = "slurm-%j.out";

    public static OutputFiles resolve(String stdoutPattern, String stderrPattern, Path workDir, OutputPattern.Values values) {
        Path out = workDir.resolve(OutputPattern.expand(stdoutPattern.isEmpty() ? DEFAULT_STDOUT : stdoutPattern, values)).normalize();
        Path err = stderrPattern.isEmpty() ? out : workDir.resolve(OutputPattern.expand(stderrPattern, values)).normalize();
        return new OutputFiles(out, err);
    }

    /** Both streams go to one file (opened once, so their writes interleave instead of overwriting). */
    public boolean merged() {
        return stdout.equals(stderr);
    }
}
