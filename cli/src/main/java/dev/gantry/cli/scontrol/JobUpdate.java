package dev.gantry.cli.scontrol;

import dev.gantry.cli.text.NiceValue;
import dev.gantry.common.units.SlurmTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code scontrol update JobId=… Tag=value…} as Slurm's scontrol_update_job reads it (src/scontrol/update_job.c):
 * tags case-insensitive and abbreviable to Slurm's minimum lengths, "Tag value" as well as "Tag=value", bare "Nice"
 * meaning 100, TimeLimit with a leading + or - changing the current limit. The fields Gantry can change: JobId,
 * TimeLimit, Partition, NumNodes, Priority, Nice, QOS, Account and Dependency.
 *
 * @param jobIds the JobId= value
 * @param timeLimit TimeLimit= as given without its sign, or null
 * @param timeSign '+' or '-' for an increment or decrement, else 0
 * @param partitions Partition= (comma list), or null
 * @param minNodes NumNodes= minimum, or null
 * @param maxNodes NumNodes= maximum, or null
 * @param priority Priority=, or null
 * @param nice Nice=, or null
 * @param qos QOS=, or null
 * @param account Account=, or null
 * @param dependency Dependency= ("" removes every dependency), or null
 */
public record JobUpdate(String jobIds, Long timeLimit, char timeSign, List<String> partitions, Integer minNodes,
                        Integer maxNodes, Long priority, Integer nice, String qos, String account,
                        String dependency) {

    /** The update cannot be sent: {@link #lines()} are scontrol's messages (to stderr). */
    public static final class Refused extends Exception {
        private final List<String> lines;

        public Refused(String... lines) {
            super(String.join("\n", lines));
            this.lines = List.of(lines);
        }

        public List<String> lines() {
            return lines;
        }
    }

    /** Parses the words after "update". */
    public static JobUpdate parse(List<String> words) throws Refused {
        String jobIds = null;
        Long timeLimit = null;
        char sign = 0;
        List<String> partitions = null;
        Integer minNodes = null;
        Integer maxNodes = null;
        Long priority = null;
        Integer nice = null;
        String qos = null;
        String account = null;
        String dependency = null;
        int changes = 0;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            int eq = word.indexOf('=');
            String tag;
            String val;
            if (eq >= 0) {
                tag = word.substring(0, eq);
                val = word.substring(eq + 1);
            } else if (matches(word, "Nice", 2)) {
                nice = NiceValue.BARE;
                changes++;
                continue;
            } else if (i + 1 < words.size()) {
                tag = word;
                val = words.get(++i);
            } else {
                throw new Refused("Invalid input: " + word, "Request aborted");
            }
            if (matches(tag, "JobId", 3)) {
                jobIds = val;
            } else if (matches(tag, "TimeLimit", 5)) {
                String v = val;
                if (v.startsWith("+") || v.startsWith("-")) {
                    sign = v.charAt(0);
                    v = v.substring(1);
                }
                try {
                    timeLimit = SlurmTime.parseLimitSeconds(v);
                } catch (IllegalArgumentException e) {
                    throw new Refused("scontrol: error: Invalid TimeLimit value");
                }
                if (sign != 0 && timeLimit < 0) {
                    throw new Refused("scontrol: error: Invalid TimeLimit value");
                }
                changes++;
            } else if (matches(tag, "Priority", 2)) {
                priority = unsigned(val, "Priority");
                changes++;
            } else if (matches(tag, "Nice", 2)) {
                nice = nice(val);
                changes++;
            } else if (matches(tag, "NumNodes", 8) || matches(tag, "ReqNodes", 8)) {
                int[] range = nodes(val);
                minNodes = range[0];
                maxNodes = range.length > 1 ? range[1] : null;
                changes++;
            } else if (matches(tag, "Partition", 2)) {
                partitions = new ArrayList<>();
                for (String p : val.split(",")) {
                    if (!p.isBlank()) {
                        partitions.add(p.trim());
                    }
                }
                changes++;
            } else if (matches(tag, "QOS", 2)) {
                qos = val;
                changes++;
            } else if (matches(tag, "Account", 1)) {
                account = val;
                changes++;
            } else if (matches(tag, "Dependency", 1)) {
                dependency = val.trim();
                changes++;
            } else {
                throw new Refused("Update of this parameter is not supported: " + word, "Request aborted");
            }
        }
        if (changes == 0) {
            throw new Refused("No changes specified");
        }
        if (jobIds == null) {
            throw new Refused("scontrol: error: No job ID specified");
        }
        return new JobUpdate(jobIds, timeLimit, sign, partitions, minNodes, maxNodes, priority, nice, qos, account,
                dependency);
    }

    /** Slurm's tag test: a case-insensitive prefix of {@code full}, at least {@code min} characters long. */
    static boolean matches(String tag, String full, int min) {
        String t = tag.toLowerCase(Locale.ROOT);
        return t.length() >= min && full.toLowerCase(Locale.ROOT).startsWith(t);
    }

    private static long unsigned(String val, String tag) throws Refused {
        try {
            long v = Long.parseLong(val.trim());
            if (v >= 0 && v <= 4_294_967_295L) {
                return v;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Refused("scontrol: error: Invalid " + tag + " value: " + val);
    }

    private static int nice(String val) throws Refused {
        try {
            return NiceValue.parse(val);
        } catch (NiceValue.Invalid e) {
            throw new Refused(e.outOfRange()
                    ? "scontrol: error: Nice value out of range (+/- " + NiceValue.MAX + "). Value ignored"
                    : "scontrol: error: Invalid Nice value: " + val);
        }
    }

    private static int[] nodes(String val) throws Refused {
        String[] parts = val.trim().split("-", -1);
        try {
            int min = Integer.parseInt(parts[0]);
            if (parts.length == 1 && min > 0) {
                return new int[] {min};
            }
            int max = parts.length == 2 ? Integer.parseInt(parts[1]) : -1;
            if (parts.length == 2 && min > 0 && max >= min) {
                return new int[] {min, max};
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Refused("scontrol: error: Invalid NumNodes value: " + val);
    }

    /**
     * The limit to send: the value given, or the current limit changed by it ({@code currentSeconds} -1 =
     * UNLIMITED). Slurm counts in minutes, and a decrement larger than the limit is refused.
     */
    public long timeLimitFrom(long currentSeconds) throws Refused {
        if (timeSign == 0) {
            return timeLimit;
        }
        if (currentSeconds < 0) {
            return currentSeconds;
        }
        if (timeSign == '+') {
            return currentSeconds + timeLimit;
        }
        if (timeLimit > currentSeconds) {
            throw new Refused("scontrol: error: TimeLimit decrement larger than current time limit ("
                    + timeLimit / 60 + " > " + currentSeconds / 60 + ")");
        }
        return currentSeconds - timeLimit;
    }
}
