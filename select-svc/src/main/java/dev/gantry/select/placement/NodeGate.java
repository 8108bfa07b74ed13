package dev.gantry.select.placement;

import dev.gantry.placement.NodeDemand;
/**
 * An extra per-node condition a caller adds to the ledger's (e.g. "free for the job's whole time limit, given the
 * reservations made so far"). Must be pure.
 */
@FunctionalInterface
public interface NodeGate {

    NodeGate OPEN = (node, demand) -> true;

    boolean open(int node, NodeDemand demand);
}
