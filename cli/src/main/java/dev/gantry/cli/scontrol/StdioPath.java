package dev.gantry.cli.scontrol;

/**
 * Expands an output file pattern as scontrol shows StdOut= and StdErr= (Slurm's {@code _fname_format} in
 * src/api/job_info.c): %j job id, %A the array's job id (the job id when not an array task), %a the array
 * task id (4294967294 when not an array task), %u user, %x job name, %% a percent sign, an optional zero-pad width digit after '%' for the numbers; other codes stay as written. A
 * relative result is relative to the working directory.
 */
final class StdioPath {

    private StdioPath() {}

    /** Slurm's NO_VAL - 1, printed for %a when the job is not an array task. */
    static final long NOT_AN_ARRAY_TASK = 4294967294L;

    /** The path for {@code pattern}, or Slurm's default "slurm-%j.out" when the pattern is empty. */
    static String expand(String pattern, long jobId, String user, String jobName, String workDir) {
        return expand(pattern, jobId, 0, -1, user, jobName, workDir);
    }

    /**
     * The path for {@code pattern} of an array task ({@code arrayJobId} 0 and {@code arrayTaskId} -1 when not one),
     * or Slurm's default: "slurm-%A_%a.out" for an array task, "slurm-%j.out" otherwise.
     */
    static String expand(String pattern, long jobId, long arrayJobId, int arrayTaskId, String user, String jobName,
                         String workDir) {
        boolean task = arrayJobId != 0 && arrayTaskId >= 0;
        String p = pattern == null || pattern.isEmpty() ? (task ? "slurm-%A_%a.out" : "slurm-%j.out") : pattern;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c != '%' || i + 1 >= p.length()) {
                out.append(c);
                continue;
            }
            int j = i + 1;
            int width = 0;
            if (Character.isDigit(p.charAt(j))) {
                width = p.charAt(j) - '0';
                j++;
                if (j >= p.length()) {
                    out.append(p, i, p.length());
                    break;
                }
            }
            char code = p.charAt(j);
            switch (code) {
                case '%' -> out.append('%');
                case 'j' -> out.append(pad(jobId, width));
                case 'A' -> out.append(pad(task ? arrayJobId : jobId, width));
                case 'a' -> out.append(pad(task ? arrayTaskId : NOT_AN_ARRAY_TASK, width));
                case 'u' -> out.append(user);
                case 'x' -> out.append(jobName);
                default -> {
                    out.append(p, i, j + 1);
                }
            }
            i = j;
        }
        String path = out.toString();
        return path.startsWith("/") ? path : workDir + "/" + path;
    }

    private static String pad(long value, int width) {
        String digits = Long.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }
}
