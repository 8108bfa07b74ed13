package dev.gantry.scheduler.control;

import java.util.Arrays;
import java.util.BitSet;

/**
 * A job array request, {@code -a/--array=<indexes>[%max]} (https://slurm.schedmd.com/sbatch.html#OPT_array;
 * https://slurm.schedmd.com/job_array.html): comma-separated ids {@code 7}, ranges {@code 0-15} and stepped ranges
 * {@code 0-15:4}, then an optional {@code %N} limit on tasks running at once. Every id must be below MaxArraySize
 * (slurm.conf, default 1001; 0 disables arrays), and SchedulerParameters=max_array_tasks caps the count.
 *
 * @param taskIds the task ids, ascending, without duplicates
 * @param maxRunning the {@code %N} limit, or 0 for none
 */
public record ArraySpec(int[] taskIds, int maxRunning) {

    /** Slurm's message for a refused array request (ESLURM_INVALID_ARRAY). */
    public static final String INVALID = "Invalid job array specification";

    public ArraySpec {
        taskIds = taskIds.clone();
        if (taskIds.length == 0 || maxRunning < 0) {
            throw new IllegalArgumentException("an array has at least one task and a non-negative limit");
        }
    }

    /**
     * Parses and checks an --array value.
     *
     * @param maxArraySize slurm.conf MaxArraySize: ids must be below it; 0 refuses every array
     * @param maxTasks SchedulerParameters=max_array_tasks (MaxArraySize when not set): most tasks in one array
     * @throws InvalidControlException field "array", message "Invalid job array specification", the detail naming
     *         the limit or the malformed part
     */
    public static ArraySpec parse(String text, int maxArraySize, int maxTasks) {
        String s = text == null ? "" : text.trim();
        if (maxArraySize <= 0) {
            throw invalid(s, "job arrays are disabled (MaxArraySize=0)");
        }
        int maxRunning = 0;
        String list = s;
        int percent = s.indexOf('%');
        if (percent >= 0) {
            String limit = s.substring(percent + 1);
            if (!digits(limit) || limit.length() > 9) {
                throw invalid(s, "'%" + limit + "' is not a number of tasks");
            }
            maxRunning = Integer.parseInt(limit);
            list = s.substring(0, percent);
        }
        int[] ids;
        try {
            ids = parseIndexes(list, maxArraySize);
        } catch (IllegalArgumentException e) {
            throw invalid(s, e.getMessage());
        }
        if (ids.length > maxTasks) {
            throw invalid(s, ids.length + " tasks exceed max_array_tasks=" + maxTasks);
        }
        return new ArraySpec(ids, maxRunning);
    }

    /**
     * The ids of an index list without {@code %}: {@code 1,3,5-7,0-15:4}; a token may be wrapped in [ ] as
     * slurmctld allows. Every id must be below {@code limit}.
     *
     * @throws IllegalArgumentException saying which token is wrong
     */
    static int[] parseIndexes(String list, int limit) {
        BitSet ids = new BitSet();
        boolean any = false;
        for (String raw : list.split(",", -1)) {
            if (raw.isEmpty()) {
                continue; // Slurm's strtok skips empty tokens
            }
            String tok = raw.startsWith("[") ? raw.substring(1) : raw;
            tok = tok.endsWith("]") ? tok.substring(0, tok.length() - 1) : tok;
            int first;
            int last;
            int step = 1;
            int dash = tok.indexOf('-');
            if (dash < 0) {
                first = number(tok, raw);
                last = first;
            } else {
                first = number(tok.substring(0, dash), raw);
                String rest = tok.substring(dash + 1);
                int colon = rest.indexOf(':');
                last = number(colon < 0 ? rest : rest.substring(0, colon), raw);
                if (colon >= 0) {
                    step = number(rest.substring(colon + 1), raw);
                    if (step <= 0) {
                        throw new IllegalArgumentException("'" + raw + "': the step must be positive");
                    }
                }
                if (last < first) {
                    throw new IllegalArgumentException("'" + raw + "': the range ends before it starts");
                }
            }
            if (last >= limit) {
                throw new IllegalArgumentException("task id " + last + " is not below MaxArraySize=" + limit);
            }
            for (long i = first; i <= last; i += step) {
                ids.set((int) i);
            }
            any = true;
        }
        if (!any) {
            throw new IllegalArgumentException("no task ids");
        }
        return ids.stream().toArray();
    }

    private static int number(String s, String token) {
        if (!digits(s) || s.length() > 9) {
            throw new IllegalArgumentException("'" + token + "' is not an index, a range or a stepped range");
        }
        return Integer.parseInt(s);
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static InvalidControlException invalid(String text, String detail) {
        return new InvalidControlException("array", INVALID, "--array=" + text + ": " + detail);
    }

    public int count() {
        return taskIds.length;
    }

    /** SLURM_ARRAY_TASK_MIN. */
    public int min() {
        return taskIds[0];
    }

    /** SLURM_ARRAY_TASK_MAX. */
    public int max() {
        return taskIds[taskIds.length - 1];
    }

    /** SLURM_ARRAY_TASK_STEP: the spacing when the ids are evenly spaced, else 1. */
    public int step() {
        if (taskIds.length < 2) {
            return 1;
        }
        int d = taskIds[1] - taskIds[0];
        for (int i = 2; i < taskIds.length; i++) {
            if (taskIds[i] - taskIds[i - 1] != d) {
                return 1;
            }
        }
        return d;
    }

    /** The ids as Slurm prints a task list: ranges of consecutive ids, e.g. {@code 0-3,5,8-9}. */
    public static String formatIds(int[] sortedIds) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < sortedIds.length) {
            int j = i;
            while (j + 1 < sortedIds.length && sortedIds[j + 1] == sortedIds[j] + 1) {
                j++;
            }
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(sortedIds[i]);
            if (j > i) {
                b.append('-').append(sortedIds[j]);
            }
            i = j + 1;
        }
        return b.toString();
    }

    /**
     * How squeue shows the pending remainder of an array: {@code 123_[5-99%10]} (the {@code %N} part only when
     * limited), or {@code 123_7} when one task is left.
     */
    public static String pendingJobId(long arrayJobId, int[] pendingIds, int maxRunning) {
        if (pendingIds.length == 1 && maxRunning == 0) {
            return arrayJobId + "_" + pendingIds[0];
        }
        return arrayJobId + "_[" + formatIds(pendingIds) + (maxRunning > 0 ? "%" + maxRunning : "") + "]";
    }

    /** The request as written back: ids as ranges, then {@code %N}: e.g. {@code 0-99%10}. */
    @Override
    public String toString() {
        return formatIds(taskIds) + (maxRunning > 0 ? "%" + maxRunning : "");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArraySpec a && a.maxRunning == maxRunning && Arrays.equals(a.taskIds, taskIds);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(taskIds) + maxRunning;
    }

    @Override
    public int[] taskIds() {
        return taskIds.clone();
    }
}
