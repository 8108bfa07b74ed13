package dev.gantry.placement;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GRES choices on one node (select-svc's ledger, {@link NodeUse}), given its pools and {@code used[p]}, how many of pool {@code p} are
 * in use. Stateless; the arrays are read only.
 */
public final class GresUse {
    private GresUse() {}

    /**
     * Pool index to count taken for the requests, each from the first pools that serve it; a request that does not
     * fit takes what is free. Precondition for a full take: each request's {@link NodeFit#gresFree} is at least its count.
     */
    public static Map<Integer, Integer> take(List<GresPool> pools, int[] used, List<GresRequest> requests) {
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
