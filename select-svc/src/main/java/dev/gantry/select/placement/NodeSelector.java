package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeShare;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the nodes for one job in one partition, or none when it does not fit now.
 *
 * <p>Tries node counts from min_nodes up to max_nodes and takes the first that fits (fewest nodes). For a count n,
 * the job's num_tasks × cpus_per_task CPUs are spread evenly: every node must have ceil(total / n) CPUs free (at least
 * 1) and, when memory is requested, mem_per_node_mb free; the first (total mod n) nodes get one CPU more than the
 * rest. Under select/linear each node must be idle and the job takes all of its CPUs. Among the admitted members
 * the {@link NodeScorer}'s order decides; the first chosen node runs the batch script.
 */
final class NodeSelector {

    private final NodeFilter filter;
    private final NodeScorer scorer;

    NodeSelector(NodeFilter filter, NodeScorer scorer) {
        this.filter = filter;
        this.scorer = scorer;
    }

    /** The shares the job would get in {@code partition}, without charging them to {@code capacity}. */
    Optional<List<NodeShare>> select(Capacity capacity, ClusterPartition partition, ResourceRequest request,
                                     boolean wholeNodes) {
        List<Integer> members = memberIndexes(capacity, partition);
        int most = Math.min(request.maxNodes(), members.size());
        if (most < request.minNodes()) {
            return Optional.empty();
        }
        // The most nodes make the smallest per-node demand, which admits the most nodes (filters are monotone):
        // no count above that many admitted nodes can fit, so a job that fits nowhere costs one pass, not one per count.
        most = Math.min(most, admitted(capacity, members, demand(request, most, wholeNodes)).size());
        for (int count = request.minNodes(); count <= most; count++) {
            NodeDemand demand = demand(request, count, wholeNodes);
            List<NodeCandidate> admitted = admitted(capacity, members, demand);
            if (admitted.size() >= count) {
                Comparator<NodeCandidate> preference = scorer.preference(demand);
                List<NodeCandidate> chosen = admitted.stream().sorted(preference).limit(count).toList();
                return Optional.of(shares(chosen, request, wholeNodes));
            }
        }
        return Optional.empty();
    }

    private static NodeDemand demand(ResourceRequest request, int count, boolean wholeNodes) {
        return new NodeDemand(Math.max(1, Math.ceilDiv(request.totalCpus(), count)), request.memPerNodeMb(), wholeNodes);
    }

    private List<NodeCandidate> admitted(Capacity capacity, List<Integer> members, NodeDemand demand) {
        List<NodeCandidate> admitted = new ArrayList<>();
        for (int index : members) {
            NodeCandidate candidate = capacity.candidate(index);
            if (filter.admits(candidate, demand)) {
                admitted.add(candidate);
            }
        }
        return admitted;
    }

    /** Partition members the replica knows, in partition order, each once. */
    private static List<Integer> memberIndexes(Capacity capacity, ClusterPartition partition) {
        List<Integer> members = new ArrayList<>(partition.nodes().size());
        BitSet seen = new BitSet(capacity.view().nodeCount());
        for (String name : partition.nodes()) {
            int index = capacity.view().indexOf(name);
            if (index >= 0 && !seen.get(index)) {
                seen.set(index);
                members.add(index);
            }
        }
        return members;
    }

    private static List<NodeShare> shares(List<NodeCandidate> chosen, ResourceRequest request, boolean wholeNodes) {
        int count = chosen.size();
        long base = request.totalCpus() / count;
        long extra = request.totalCpus() % count;
        List<NodeShare> shares = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ClusterNode node = chosen.get(i).node();
            long cpus = wholeNodes ? node.cpus() : Math.max(1, base + (i < extra ? 1 : 0));
            shares.add(new NodeShare(node.name(), Math.toIntExact(cpus), request.memPerNodeMb()));
        }
        return shares;
    }
}
