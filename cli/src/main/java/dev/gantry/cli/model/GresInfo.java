package dev.gantry.cli.model;

import java.util.List;

/**
 * A generic resource (Slurm GRES): a node's configured count, a job's request per node, or what a job holds on a node.
 *
 * @param name e.g. "gpu"
 * @param type e.g. "a100"; "" when untyped
 * @param count how many
 * @param indices in an allocation, which devices of that name and type (0-based), when known; else empty
 */
public record GresInfo(String name, String type, long count, List<Integer> indices) {

    public GresInfo {
        indices = List.copyOf(indices);
    }

    /** {@code gpu} or {@code gpu:a100}: the name with its type, when it has one. */
    public String typedName() {
        return type.isEmpty() ? name : name + ":" + type;
    }
}
