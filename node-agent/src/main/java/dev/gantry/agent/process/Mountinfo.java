package dev.gantry.agent.process;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of /proc/self/mountinfo (proc(5)): {@code ID PARENT MAJ:MIN ROOT MOUNT_POINT MOUNT_OPTIONS [TAGS…] -
 * FS_TYPE SOURCE SUPER_OPTIONS}. Pure: parses text.
 */
final class Mountinfo {

    /** One mount: the root of the mount within its file system, where it is mounted, and both lists of options. */
    record Entry(String root, String mountPoint, List<String> mountOptions, String fsType, List<String> superOptions) {}

    private Mountinfo() {}

    /** Every well-formed line of {@code text}, in order; malformed lines are skipped. */
    static List<Entry> parse(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] halves = line.split(" - ", 2);
            if (halves.length != 2) {
                continue;
            }
            String[] pre = halves[0].split(" ");
            String[] post = halves[1].split(" ");
            if (pre.length >= 6 && post.length >= 3) {
                entries.add(new Entry(unescape(pre[3]), unescape(pre[4]), List.of(pre[5].split(",")), post[0],
                        List.of(post[2].split(","))));
            }
        }
        return entries;
    }

    /** mountinfo escapes space, tab, newline and backslash in paths as a backslash and three octal digits. */
    static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
