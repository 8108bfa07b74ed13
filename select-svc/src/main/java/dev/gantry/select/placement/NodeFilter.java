package dev.gantry.select.placement;

/**
 * The filter stage: whether a job may get a share of one node (the Kubernetes scheduler framework's Filter; GRES,
 * features and topology filters join this stage later).
 *
 * <p>Contract: pure and independent of other nodes and of call order; and monotone: a node admitted for a demand is
 * admitted for any demand that asks for no more CPUs and no more memory (everything else equal).
 */
@FunctionalInterface
public interface NodeFilter {

    boolean admits(NodeCandidate candidate, NodeDemand demand);

    /** Every filter must admit the node. */
    default NodeFilter and(NodeFilter other) {
        return (candidate, demand) -> admits(candidate, demand) && other.admits(candidate, demand);
    }
}
