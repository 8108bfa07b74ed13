package dev.gantry.placement;

import java.util.ArrayList;
import java.util.List;

/**
 * A node's generic resources (slurm.conf {@code Gres=}, https://slurm.schedmd.com/gres.html), in config order.
 * Pools are addressed by index, so allocations count per pool.
 */
public record Gres(List<GresPool> pools) {

    public static final Gres NONE = new Gres(List.of());

    public Gres {
        pools = List.copyOf(pools);
    }

    /**
     * Parses {@code gpu:4}, {@code gpu:a100:2,gpu:v100:2}, {@code nic} (count 1); blank or "(null)" is none.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public static Gres parse(String text) {
        if (text == null || text.isBlank() || text.equals("(null)")) {
            return NONE;
        }
        List<GresPool> pools = new ArrayList<>();
        for (String entry : text.split(",")) {
            String[] parts = entry.trim().split(":");
            try {
                pools.add(switch (parts.length) {
                    case 1 -> new GresPool(parts[0], "", 1);
                    case 2 -> new GresPool(parts[0], "", Integer.parseInt(parts[1]));
                    case 3 -> new GresPool(parts[0], parts[1], Integer.parseInt(parts[2]));
                    default -> throw new IllegalArgumentException("bad GRES entry '" + entry + "'");
                });
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad GRES count in '" + entry + "'");
            }
        }
        return new Gres(pools);
    }

    /** How many units of {@code name} (of {@code type}, or any when empty) the node has in all. */
    public int total(String name, String type) {
        return total(pools, name, type);
    }

    /** How many units of {@code name} (of {@code type}, or any when empty) the pools hold in all. */
    public static int total(List<GresPool> pools, String name, String type) {
        int total = 0;
        for (GresPool pool : pools) {
            if (pool.serves(name, type)) {
                total += pool.count();
            }
        }
        return total;
    }
}
