package dev.gantry.select.placement;

import java.util.Comparator;

/**
 * The score stage: the order in which admitted nodes are taken for a demand, most preferred first. The ordering
 * must be total (end on the node index) so placements are deterministic.
 */
@FunctionalInterface
public interface NodeScorer {

    Comparator<NodeCandidate> preference(NodeDemand demand);
}
