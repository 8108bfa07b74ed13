package dev.gantry.agent.job;

/**
 * Expands sbatch's --output/--error file name patterns, as
 * <a href="https://slurm.schedmd.com/sbatch.html#SECTION_FILENAME-PATTERN">Slurm documents them</a>:
 * {@code %j} the job id, {@code %A} the array's job id for a job array task (the job id otherwise), {@code %a}
 * the task's array index (4294967294 for a job that is not part of an array, as Slurm prints it), {@code %x}
 * the job name, {@code %u} the user name, {@code %N} this node's name, {@code %n} and {@code %t} 0 (the batch
 * script is node 0, task 0), {@code %%} a percent sign.
 * A number between {@code %} and the letter zero-pads numeric values ({@code %5j} gives {@code 00042}).
 * A pattern containing a backslash is not expanded; its backslashes are dropped. Unknown sequences are kept
 * as written. Pure.
 */
public final class OutputPattern {

    /** Slurm's NO_VAL-1, printed for %a when the job is not an array task. */
    public static final long NOT_AN_ARRAY_TASK = 4294967294L;

    /** Padding beyond this is capped: a typo such as %99999j must not build a huge name. */
    static final int MAX_WIDTH = 20;

    /**
     * What the letters stand for.
     *
     * @param arrayJobId {@code %A}: the array's job id, or the job id for a job that is not an array task
     * @param arrayTaskId {@code %a}: the array index, or {@link #NOT_AN_ARRAY_TASK}
     */
    public record Values(long jobId, long arrayJobId, long arrayTaskId, String jobName, String user, String nodeName) {

        /** A job that is not an array task. */
        public Values(long jobId, String jobName, String user, String nodeName) {
            this(jobId, jobId, NOT_AN_ARRAY_TASK, jobName, user, nodeName);
        }

        /** The values for {@code order}, run by {@code user} on {@code nodeName}. */
        public static Values of(LaunchOrder order, String user, String nodeName) {
            return order.array()
                    .map(a -> new Values(order.jobId(), a.arrayJobId(), a.taskId(), order.jobName(), user, nodeName))
                    .orElseGet(() -> new Values(order.jobId(), order.jobName(), user, nodeName));
        }
    }

    private OutputPattern() {}

    public static String expand(String pattern, Values values) {
        if (pattern.indexOf('\\') >= 0) {
            return pattern.replace("\\", "");
        }
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 >= pattern.length()) {
                out.append(c);
                i++;
                continue;
            }
            int j = i + 1;
            while (j < pattern.length() && pattern.charAt(j) >= '0' && pattern.charAt(j) <= '9') {
                j++;
            }
            if (j >= pattern.length()) {
                out.append(pattern, i, j);
                break;
            }
            int width = 0;
            for (int k = i + 1; k < j; k++) {
                width = Math.min(width * 10 + (pattern.charAt(k) - '0'), MAX_WIDTH);
            }
            String replacement = switch (pattern.charAt(j)) {
                case '%' -> "%";
                case 'j' -> padded(values.jobId(), width);
                case 'A' -> padded(values.arrayJobId(), width);
                case 'a' -> padded(values.arrayTaskId(), width);
                case 'n', 't' -> padded(0, width);
                case 'x' -> values.jobName();
                case 'u' -> values.user();
                case 'N' -> values.nodeName();
                default -> null;
            };
            if (replacement == null) {
                out.append(pattern, i, j + 1);
            } else {
                out.append(replacement);
            }
            i = j + 1;
        }
        return out.toString();
    }

    private static String padded(long value, int width) {
        String digits = Long.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }
}
