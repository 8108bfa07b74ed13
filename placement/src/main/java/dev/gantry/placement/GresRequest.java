package dev.gantry.placement;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code --gres} entry: {@code count} units of {@code name} on every node, of {@code type} or any type when "".
 */
public record GresRequest(String name, String type, int count) {

    public GresRequest {
        if (name.isBlank() || count < 1) {
            throw new IllegalArgumentException("gres must name a resource and a positive count, got " + name + ":" + count);
        }
    }

    /** Parses {@code gpu}, {@code gpu:2}, {@code gpu:a100:2}, comma-separated; blank is none. */
    public static List<GresRequest> parseList(String text) {
        List<GresRequest> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String entry : text.split(",")) {
            String[] p = entry.trim().split(":");
            out.add(switch (p.length) {
                case 1 -> new GresRequest(p[0], "", 1);
                case 2 -> p[1].chars().allMatch(Character::isDigit)
                        ? new GresRequest(p[0], "", Integer.parseInt(p[1])) : new GresRequest(p[0], p[1], 1);
                case 3 -> new GresRequest(p[0], p[1], Integer.parseInt(p[2]));
                default -> throw new IllegalArgumentException("bad gres '" + entry + "'");
            });
        }
        return out;
    }

    /** {@code name:count} or {@code name:type:count}, as {@code --gres} takes it. */
    @Override
    public String toString() {
        return type.isEmpty() ? name + ":" + count : name + ":" + type + ":" + count;
    }
}
