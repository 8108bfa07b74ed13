package dev.gantry.cli.scontrol;

/**
 * Expands an output file pattern as scontrol shows StdOut= and StdErr= (Slurm's {@code _fname_format} in
 * src/api/job_info.c): %j job id, %A job id (Gantry has no job arrays), %u user, %x job name, %% a
 * percent sign, an optional zero-pad width digit after '%' for the numbers; other codes stay as written. A
 * relative result is relative to the working directory.
 */
final class StdioPath {

    private StdioPath() {}

    /** The path for {@code pattern}, or Slurm's default "slurm-%j.out" when the pattern is empty. */
    static String expand(String pattern, long jobId, String user, String jobName, String workDir) {
        String p = pattern == null || pattern.isEmpty() ? "slurm-%j.out" : pattern;
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
                case 'j', 'A' -> out.append(pad(jobId, width));
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
