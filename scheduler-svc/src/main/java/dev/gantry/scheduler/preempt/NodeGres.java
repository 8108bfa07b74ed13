package dev.gantry.scheduler.preempt;

import java.util.Map;

/**
 * GRES facts of one node, for deciding whether a suspended victim's GRES (which it keeps, as it keeps its memory) leave
 * room for its preemptor. Counts are keyed as allocations count them: {@code name}, or {@code name:type} for a typed
 * pool ({@code GresGrant.key()}).
 *
 * @param configured each pool's configured count on the node
 * @param held held now by every job that holds resources there, running or suspended, victims included
 */
public record NodeGres(String node, Map<String, Long> configured, Map<String, Long> held) {

    public NodeGres {
        configured = Map.copyOf(configured);
        held = Map.copyOf(held);
    }
}
