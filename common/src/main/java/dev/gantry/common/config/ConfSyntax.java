package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The lexical rules of slurm.conf syntax (https://slurm.schedmd.com/slurm.conf.html) shared by {@link ConfigParser}'s
 * line readers: {@code #} comments outside double quotes, {@code Key=Value} pairs separated by white space, values
 * that may be double-quoted, backslash-continued lines, and the canonical spelling of keys in messages; also read by
 * {@link TopologyParser}. Stateless.
 */
final class ConfSyntax {
    private ConfSyntax() {}

    /** The line without its {@code #} comment (a {@code #} inside double quotes is kept). */
    static String stripComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** Takes one logical line of a config file. */
    @FunctionalInterface
    interface LineReader {
        /** @param lineNo the number of its first physical line, from 1 */
        void line(String text, int lineNo);
    }

    /**
     * Gives {@code reader} the logical lines of {@code text}: physical lines joined where one ends in a backslash,
     * comments stripped, trimmed; blank ones left out.
     */
    static void logicalLines(String text, LineReader reader) {
        String[] lines = text.split("\n", -1);
        StringBuilder pending = new StringBuilder();
        int startLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]).stripTrailing();
            if (pending.isEmpty()) {
                startLine = i + 1;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            String logical = pending.toString().trim();
            pending.setLength(0);
            if (!logical.isEmpty()) {
                reader.line(logical, startLine);
            }
        }
        // a backslash on the last line with no newline after it continues into nothing
        String last = pending.toString().trim();
        if (!last.isEmpty()) {
            reader.line(last, startLine);
        }
    }

    /** Splits into key/value pairs; null after reporting a problem. */
    static List<String[]> tokenize(String line, int lineNo, NodeResources.Problems problems) {
        List<String[]> pairs = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) != '=' && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            String key = line.substring(keyStart, i);
            if (i >= n || line.charAt(i) != '=') {
                problems.add(lineNo, key, "expected Key=Value");
                return null;
            }
            i++; // '='
            StringBuilder value = new StringBuilder();
            if (i < n && line.charAt(i) == '"') {
                int close = line.indexOf('"', i + 1);
                if (close < 0) {
                    problems.add(lineNo, key, "unterminated quoted value");
                    return null;
                }
                value.append(line, i + 1, close);
                i = close + 1;
            } else {
                while (i < n && !Character.isWhitespace(line.charAt(i))) {
                    value.append(line.charAt(i++));
                }
            }
            pairs.add(new String[] {key, value.toString()});
        }
        return pairs;
    }

    /**
     * The pairs as lower-case key to value, in order; a key not in {@code allowed} (lower-case) or given twice is
     * reported (the later value of a repeated key is kept).
     */
    static Map<String, String> collect(List<String[]> pairs, Set<String> allowed, int lineNo,
            NodeResources.Problems problems) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String[] kv : pairs) {
            String lower = kv[0].toLowerCase(Locale.ROOT);
            if (!allowed.contains(lower)) {
                problems.add(lineNo, kv[0], "unknown key");
                continue;
            }
            if (m.put(lower, kv[1]) != null) {
                problems.add(lineNo, kv[0], "given twice on one line");
            }
        }
        return m;
    }

    /** How a node or partition key is spelled in messages, from its lower-case form. */
    static String canonical(String lowerKey) {
        return switch (lowerKey) {
            case "cpus" -> "CPUs";
            case "corespersocket" -> "CoresPerSocket";
            case "threadspercore" -> "ThreadsPerCore";
            case "maxtime" -> "MaxTime";
            case "defaulttime" -> "DefaultTime";
            case "maxnodes" -> "MaxNodes";
            case "minnodes" -> "MinNodes";
            case "prioritytier" -> "PriorityTier";
            case "priorityjobfactor" -> "PriorityJobFactor";
            case "oversubscribe" -> "OverSubscribe";
            case "preemptmode" -> "PreemptMode";
            case "gracetime" -> "GraceTime";
            case "allowaccounts" -> "AllowAccounts";
            case "allowqos" -> "AllowQos";
            case "defmempercpu" -> "DefMemPerCPU";
            case "defmempernode" -> "DefMemPerNode";
            case "maxmempercpu" -> "MaxMemPerCPU";
            case "maxmempernode" -> "MaxMemPerNode";
            case "exclusiveuser" -> "ExclusiveUser";
            case "backfillpolicy" -> "BackfillPolicy";
            default -> Character.toUpperCase(lowerKey.charAt(0)) + lowerKey.substring(1);
        };
    }
}
