package dev.gantry.select.placement;

/**
 * Admits a node that is usable (up, not drained, responding) and has the demand free: enough CPUs, enough memory
 * when memory is requested, and, for whole-node (select/linear) demands, nothing allocated at all.
 */
public final class FreeResourcesFilter implements NodeFilter {

    @Override
    public boolean admits(NodeCandidate candidate, NodeDemand demand) {
        if (!candidate.node().usable()) {
            return false;
        }
        if (demand.wholeNode() && !candidate.idle()) {
            return false;
        }
        return candidate.freeCpus() >= demand.cpus()
                && (demand.memoryMb() == 0 || candidate.freeMemoryMb() >= demand.memoryMb());
    }
}
