package dev.gantry.placement;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks a whole proposed placement of one job in one partition: the node count, each node once, in the partition,
 * not excluded, able to give its share ({@link ShareCheck}) and whatever else the caller checks per node (node
 * features), the required nodes all in it, and the CPUs in all. scheduler-svc validates select-svc's proposals with it;
 * select-svc's property tests check every plan against it. Pure.
 */
public final class ProposalCheck {
    private ProposalCheck() {}

    /**
     * What a job asks of a placement in one partition.
     *
     * @param partitionNodes the partition's nodes
     * @param required       -w: every one must be in the placement
     * @param excluded       -x: none may be
     */
    public record JobTerms(String partition, int minNodes, int maxNodes, JobSizing sizing, Sharing sharing,
                           List<GresRequest> gres, Owner owner, Set<String> partitionNodes, List<String> required,
                           Set<String> excluded) {

        public JobTerms {
            gres = List.copyOf(gres);
            partitionNodes = Set.copyOf(partitionNodes);
            required = List.copyOf(required);
            excluded = Set.copyOf(excluded);
            owner = owner == null ? Owner.NONE : owner;
        }
    }

    /**
     * Empty when the job can have {@code shares} now; otherwise the first reason it cannot.
     *
     * @param nodes     the node and what its jobs hold now, by name; null for a node that does not exist
     * @param nodeExtra further reasons a node cannot be given (node features), checked after its share
     */
    public static Optional<String> check(JobTerms job, List<OfferedShare> shares, Function<String, NodeUse> nodes,
                                         Function<String, Optional<String>> nodeExtra) {
        int n = shares.size();
        if (n < job.minNodes() || n > job.maxNodes()) {
            return Optional.of(n + " nodes is outside " + job.minNodes() + "-" + job.maxNodes());
        }
        NodeDemand asked = job.sizing().demandOn(0, n, job.sharing(), job.gres(), job.partition(), job.owner());
        long cpusGiven = 0;
        Set<String> seen = new HashSet<>();
        for (OfferedShare s : shares) {
            if (!seen.add(s.node())) {
                return Optional.of("node " + s.node() + " given twice");
            }
            if (!job.partitionNodes().contains(s.node())) {
                return Optional.of("node " + s.node() + " is not in partition " + job.partition());
            }
            if (job.excluded().contains(s.node())) {
                return Optional.of("node " + s.node() + " is excluded");
            }
            NodeUse node = nodes.apply(s.node());
            if (node == null) {
                return Optional.of("node " + s.node() + " is not usable");
            }
            Optional<String> problem = ShareCheck.check(node, asked, s).or(() -> nodeExtra.apply(s.node()));
            if (problem.isPresent()) {
                return problem;
            }
            cpusGiven += s.cpus();
        }
        for (String required : job.required()) {
            if (!seen.contains(required)) {
                return Optional.of("required node " + required + " is not in the placement");
            }
        }
        if (cpusGiven < job.sizing().totalCpus()) {
            return Optional.of(cpusGiven + " CPUs given, " + job.sizing().totalCpus() + " needed");
        }
        return Optional.empty();
    }
}
