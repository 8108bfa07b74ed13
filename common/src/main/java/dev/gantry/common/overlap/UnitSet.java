package dev.gantry.common.overlap;

import java.util.BitSet;

/** Cores (or the sockets they are on) per node; a node held without core ids is held whole. */
final class UnitSet implements ActiveSet {
    private final NodeTable table;
    private final boolean sockets;
    private final BitSet[] units;
    private final BitSet whole;

    UnitSet(NodeTable table, boolean sockets) {
        this.table = table;
        this.sockets = sockets;
        this.units = new BitSet[table.size()];
        this.whole = new BitSet(table.size());
    }

    @Override
    public boolean fits(Holding job) {
        for (int i = 0; i < job.nodes().length; i++) {
            int node = job.nodes()[i];
            if (whole.get(node)) {
                return false;
            }
            BitSet taken = units[node];
            if (taken == null) {
                continue;
            }
            if (job.cores()[i].length == 0 && !taken.isEmpty()) {
                return false;
            }
            for (int core : job.cores()[i]) {
                if (taken.get(unit(node, core))) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void add(Holding job) {
        for (int i = 0; i < job.nodes().length; i++) {
            int node = job.nodes()[i];
            if (job.cores()[i].length == 0) {
                whole.set(node);
                continue;
            }
            if (units[node] == null) {
                units[node] = new BitSet();
            }
            for (int core : job.cores()[i]) {
                units[node].set(unit(node, core));
            }
        }
    }

    private int unit(int node, int core) {
        return sockets ? core / table.coresPerSocket(node) : core;
    }
}
