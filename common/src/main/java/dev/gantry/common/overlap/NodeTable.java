package dev.gantry.common.overlap;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Node names to dense indices, with each node's CPUs and cores per socket, so active sets are arrays. Indices are
 * never reused or removed within one replica; a node first seen in an allocation gets one CPU-less default shape
 * until the stream describes it. Not thread-safe.
 */
public final class NodeTable {

    private final Map<String, Integer> index = new HashMap<>();
    private int[] cpus = new int[16];
    private int[] coresPerSocket = new int[16];

    public int size() {
        return index.size();
    }

    /** The node's index, adding it (one CPU, one core per socket) if unknown. */
    public int indexOf(String node) {
        Integer known = index.get(node);
        if (known != null) {
            return known;
        }
        return put(new NodeShape(node, 1, 1));
    }

    /** Adds or updates a node's shape; returns its index. */
    public int put(NodeShape node) {
        int i = index.computeIfAbsent(node.name(), name -> index.size());
        if (i >= cpus.length) {
            cpus = Arrays.copyOf(cpus, cpus.length * 2);
            coresPerSocket = Arrays.copyOf(coresPerSocket, coresPerSocket.length * 2);
        }
        cpus[i] = node.cpus();
        coresPerSocket[i] = node.coresPerSocket();
        return i;
    }

    public int cpus(int node) {
        return cpus[node];
    }

    public int coresPerSocket(int node) {
        return coresPerSocket[node];
    }
}
