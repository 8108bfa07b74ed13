package dev.gantry.placement;

import java.util.List;

/**
 * What a proposal gives a job on one node, to be checked by {@link ShareCheck}.
 *
 * @param units unit ids given (core ids under CR_Core); empty when only counted (CR_CPU, select/linear)
 * @param gres  GRES given, by name and the node's type of it
 */
public record OfferedShare(String node, int cpus, long memoryMb, List<Integer> units, List<GresTaken> gres) {

    public OfferedShare {
        units = List.copyOf(units);
        gres = List.copyOf(gres);
    }

    /**
     * GRES given on a node.
     *
     * @param type the node's type of the resource; empty when the node's resource is untyped
     */
    public record GresTaken(String name, String type, long count) {

        /** {@code name} or {@code name:type}, as allocations are counted. */
        public String key() {
            return type.isEmpty() ? name : name + ":" + type;
        }
    }
}
