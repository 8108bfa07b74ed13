package dev.gantry.scheduler.model;

import java.util.List;

/**
 * Generic resources a job holds on one node.
 *
 * @param type the node's type of the resource (e.g. a100); empty when the node's resource is untyped
 * @param indices which devices of that name and type (0-based), when select-svc named them; else empty
 */
public record GresGrant(String name, String type, long count, List<Integer> indices) {

    public GresGrant {
        indices = List.copyOf(indices);
    }

    /** The key allocations are counted under: {@code name} or {@code name:type}. */
    public String key() {
        return type.isEmpty() ? name : name + ":" + type;
    }
}
