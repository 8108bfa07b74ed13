package dev.gantry.common.hostlist;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Slurm host lists: {@code n[1-3,7],login01} expands to n1 n2 n3 n7 login01, and back.
 *
 * <p>Follows Slurm's hostlist syntax (https://slurm.schedmd.com/slurm.conf.html#OPT_NodeName): comma-separated
 * items, each with zero or more bracketed ranges; a range's zero padding is kept ({@code n[01-10]}).
 * Pure and thread-safe.
 */
public final class Hostlist {

    /** Expansion stops here: a config typo such as {@code n[1-99999999]} must not exhaust memory. */
    public static final int MAX_HOSTS = 1_000_000;

    /** Longer numbers are not ranged: 18 digits always fit in a long. */
    private static final int MAX_DIGITS = 18;

    private Hostlist() {}

    /**
     * Expands a host list expression into names, in order, duplicates kept.
     *
     * @throws IllegalArgumentException naming the problem, for unbalanced brackets, bad ranges or more than
     *     {@link #MAX_HOSTS} names
     */
    public static List<String> expand(String expression) {
        List<String> out = new ArrayList<>();
        if (expression == null || expression.isBlank()) {
            return out;
        }
        for (String item : splitTopLevel(expression.trim())) {
            if (item.isEmpty()) {
                throw new IllegalArgumentException("empty host name in '" + expression + "'");
            }
            expandItem(item, 0, "", out, expression);
        }
        return out;
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("unbalanced ']' in '" + s + "'");
                }
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i).trim());
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("unbalanced '[' in '" + s + "'");
        }
        parts.add(s.substring(start).trim());
        return parts;
    }

    private static void expandItem(String item, int from, String prefix, List<String> out, String whole) {
        int open = item.indexOf('[', from);
        if (open < 0) {
            add(out, prefix + item.substring(from), whole);
            return;
        }
        int close = item.indexOf(']', open);
        String head = prefix + item.substring(from, open);
        for (String range : item.substring(open + 1, close).split(",", -1)) {
            for (String number : expandRange(range.trim(), whole)) {
                expandItem(item, close + 1, head + number, out, whole);
            }
        }
    }

    private static List<String> expandRange(String range, String whole) {
        if (range.isEmpty()) {
            throw new IllegalArgumentException("empty range in '" + whole + "'");
        }
        int dash = range.indexOf('-');
        String lo = dash < 0 ? range : range.substring(0, dash);
        String hi = dash < 0 ? range : range.substring(dash + 1);
        if (!isDigits(lo) || !isDigits(hi)) {
            throw new IllegalArgumentException("range '" + range + "' is not numeric in '" + whole + "'");
        }
        if (lo.length() > MAX_DIGITS || hi.length() > MAX_DIGITS) {
            throw new IllegalArgumentException("range '" + range + "' is too large in '" + whole + "'");
        }
        long a = Long.parseLong(lo);
        long b = Long.parseLong(hi);
        if (b < a) {
            throw new IllegalArgumentException("range '" + range + "' runs backwards in '" + whole + "'");
        }
        if (b - a >= MAX_HOSTS) {
            throw new IllegalArgumentException("range '" + range + "' has more than " + MAX_HOSTS + " hosts");
        }
        int width = lo.length() > 1 && lo.charAt(0) == '0' ? lo.length() : 0;
        List<String> numbers = new ArrayList<>((int) (b - a + 1));
        for (long n = a; n <= b; n++) {
            numbers.add(width > 0 ? String.format("%0" + width + "d", n) : Long.toString(n));
        }
        return numbers;
    }

    private static void add(List<String> out, String name, String whole) {
        if (out.size() >= MAX_HOSTS) {
            throw new IllegalArgumentException("'" + whole + "' names more than " + MAX_HOSTS + " hosts");
        }
        out.add(name);
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** ASCII only: {@link Character#isDigit} would also accept other scripts' digits. */
    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * Compresses names into Slurm's ranged form: {@code [n1, n2, n3, n7]} gives {@code n[1-3,7]}. Names keep
     * their first-seen group order; within a group numbers are sorted and duplicates dropped, as
     * {@code scontrol show hostlist} does. A group is a prefix and a number width: zero-padded numbers
     * ({@code n01}) stay apart from unpadded ones of another width ({@code n1}), while an unpadded number as wide
     * as a padded group joins it ({@code n09, n10} give {@code n[09-10]}), as in Slurm.
     */
    public static String compress(List<String> names) {
        // padded widths seen per prefix, so that n10 can join n[01-09]
        Map<String, Set<Integer>> paddedWidths = new HashMap<>();
        for (String name : names) {
            int start = digitsStart(name);
            if (start >= 0 && isPadded(name.substring(start))) {
                paddedWidths.computeIfAbsent(name.substring(0, start), k -> new HashSet<>())
                        .add(name.length() - start);
            }
        }
        // group key: prefix + '\0' + width (0 for unpadded), or name + '\1' for a name without a number
        Map<String, TreeMap<Long, String>> groups = new LinkedHashMap<>();
        Map<String, String> prefixes = new LinkedHashMap<>();
        for (String name : names) {
            int start = digitsStart(name);
            if (start < 0) {
                groups.computeIfAbsent(name + "\u0001", k -> new TreeMap<>());
                prefixes.put(name + "\u0001", name);
                continue;
            }
            String prefix = name.substring(0, start);
            String digits = name.substring(start);
            boolean joinsPadded = paddedWidths.getOrDefault(prefix, Set.of()).contains(digits.length());
            int width = isPadded(digits) || joinsPadded ? digits.length() : 0;
            String key = prefix + '\0' + width;
            prefixes.put(key, prefix);
            groups.computeIfAbsent(key, k -> new TreeMap<>()).put(Long.parseLong(digits), digits);
        }
        List<String> items = new ArrayList<>();
        for (var entry : groups.entrySet()) {
            String prefix = prefixes.get(entry.getKey());
            TreeMap<Long, String> numbers = entry.getValue();
            if (numbers.isEmpty()) {
                items.add(prefix);
                continue;
            }
            if (numbers.size() == 1) {
                items.add(prefix + numbers.firstEntry().getValue());
                continue;
            }
            StringBuilder ranges = new StringBuilder();
            Long runStart = null;
            Long prev = null;
            for (Long n : numbers.keySet()) {
                if (prev != null && n == prev + 1) {
                    prev = n;
                    continue;
                }
                if (runStart != null) {
                    appendRange(ranges, numbers, runStart, prev);
                }
                runStart = n;
                prev = n;
            }
            appendRange(ranges, numbers, runStart, prev);
            items.add(prefix + "[" + ranges + "]");
        }
        return String.join(",", items);
    }

    /** Where a name's trailing number starts, or -1 if it has none (or one too long to range). */
    private static int digitsStart(String name) {
        int end = name.length();
        int start = end;
        while (start > 0 && isDigit(name.charAt(start - 1))) {
            start--;
        }
        return start == end || end - start > MAX_DIGITS ? -1 : start;
    }

    private static boolean isPadded(String digits) {
        return digits.length() > 1 && digits.charAt(0) == '0';
    }

    private static void appendRange(StringBuilder sb, TreeMap<Long, String> numbers, long a, long b) {
        if (!sb.isEmpty()) {
            sb.append(',');
        }
        sb.append(numbers.get(a));
        if (b != a) {
            sb.append('-').append(numbers.get(b));
        }
    }
}
