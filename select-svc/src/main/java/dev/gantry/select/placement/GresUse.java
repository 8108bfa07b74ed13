package dev.gantry.select.placement;

import dev.gantry.select.model.GresPool;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GRES choices on one node in a {@link Ledger}, given its pools and {@code used[p]}, how many of pool {@code p} are
 * in use. Stateless; the arrays are read only.
 */
final class GresUse {
    private GresUse() {}

    /** How many GRES the request could take now: the free count of every pool that serves it. */
    static int free(List<GresPool> pools, int[] used, GresRequest g) {
        int free = 0;
        for (int p = 0; p < pools.size(); p++) {
            if (pools.get(p).serves(g.name(), g.type())) {
                free += pools.get(p).count() - used[p];
            }
        }
        return free;
    }

    /**
     * Pool index to count taken for the requests, each from the first pools that serve it; a request that does not
     * fit takes what is free. Precondition for a full take: each request's {@link #free} is at least its count.
     */
    static Map<Integer, Integer> take(List<GresPool> pools, int[] used, List<GresRequest> requests) {
        Map<Integer, Integer> gres = new HashMap<>();
        for (GresRequest g : requests) {
            int wanted = g.count();
            for (int p = 0; p < pools.size() && wanted > 0; p++) {
                if (pools.get(p).serves(g.name(), g.type())) {
                    int got = Math.min(wanted, pools.get(p).count() - used[p] - gres.getOrDefault(p, 0));
                    if (got > 0) {
                        gres.merge(p, got, Integer::sum);
                        wanted -= got;
                    }
                }
            }
        }
        return gres;
    }
}
