package dev.gantry.cli.text;

import java.util.List;

/** Ascending ids as Slurm prints them compressed: {@code 0-3,5,8-9} (array task lists, CPU ids, GRES indices). */
public final class IdRanges {
    private IdRanges() {}

    public static String format(List<Integer> ids) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < ids.size()) {
            int j = i;
            while (j + 1 < ids.size() && ids.get(j + 1) == ids.get(j) + 1) {
                j++;
            }
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(ids.get(i));
            if (j > i) {
                b.append('-').append(ids.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }
}
