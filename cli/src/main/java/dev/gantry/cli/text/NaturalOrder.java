package dev.gantry.cli.text;

import java.util.Comparator;

/**
 * Host-name order as Slurm's sort functions use it: compare character by character, and where both names
 * have a digit at the first difference compare the numbers there ("n2" before "n10").
 */
public enum NaturalOrder implements Comparator<String> {
    INSTANCE;

    @Override
    public int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca == cb) {
                continue;
            }
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int start = i;
                while (start > 0 && Character.isDigit(a.charAt(start - 1))) {
                    start--;
                }
                return Long.compare(number(a, start), number(b, start));
            }
            return Character.compare(ca, cb);
        }
        return Integer.compare(a.length(), b.length());
    }

    private static long number(String s, int from) {
        long value = 0;
        for (int i = from; i < s.length() && Character.isDigit(s.charAt(i)) && value < Long.MAX_VALUE / 10; i++) {
            value = value * 10 + (s.charAt(i) - '0');
        }
        return value;
    }
}
