package dev.gantry.scheduler.submit;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.resources.FeatureConstraint;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.model.JobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The node-selection fields of a {@link JobRequest} (gres, constraint, nodelist, exclude), parsed and checked on their own:
 * syntax, GRES names against GresTypes, node names against the config. Partition fit is {@link PartitionFit}'s.
 * Pure.
 *
 * @param constraint empty when the job has none
 */
record NodeRequest(List<GresSpec> gres, Optional<FeatureConstraint> constraint, List<String> required,
        List<String> excluded) implements NodeRequestOutcome {

    /** The parsed fields, or the first problem as a {@link Misfit} naming the field. */
    static NodeRequestOutcome parse(JobRequest request, ClusterConfig config, Set<String> nodeNames) {
        List<GresSpec> gres = new ArrayList<>();
        List<String> known = config.get(Keys.GRES_TYPES).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
        for (String raw : request.gres()) {
            GresSpec g;
            try {
                g = GresSpec.parse(raw);
            } catch (IllegalArgumentException e) {
                return new Misfit("gres", "Invalid generic resource (gres) specification: " + e.getMessage());
            }
            if (g.count() < 1) {
                return new Misfit("gres", raw + ": the count must be at least 1");
            }
            if (!known.contains(g.name())) {
                return new Misfit("gres", "unknown GRES '" + g.name() + "'" + (known.isEmpty() ? "; the cluster has none"
                        : "; GresTypes is " + String.join(",", known)));
            }
            if (gres.stream().anyMatch(o -> o.name().equals(g.name()) && o.type().equals(g.type()))) {
                return new Misfit("gres", g.name() + (g.type().isEmpty() ? "" : ":" + g.type()) + " is given twice");
            }
            gres.add(g);
        }
        Optional<FeatureConstraint> constraint = Optional.empty();
        if (!request.constraint().isBlank()) {
            try {
                constraint = Optional.of(FeatureConstraint.parse(request.constraint().trim()));
            } catch (IllegalArgumentException e) {
                return new Misfit("constraint", "Invalid feature specification: " + e.getMessage());
            }
            if (counted(constraint.get())) {
                return new Misfit("constraint", "node counts (feature*N) are not supported by Gantry's node selection yet");
            }
        }
        List<String> req = new ArrayList<>();
        Misfit badRequired = nodes(request.nodelist(), "nodelist", nodeNames, req);
        if (badRequired != null) {
            return badRequired;
        }
        List<String> exc = new ArrayList<>();
        Misfit badExcluded = nodes(request.exclude(), "exclude", nodeNames, exc);
        if (badExcluded != null) {
            return badExcluded;
        }
        for (String n : req) {
            if (exc.contains(n)) {
                return new Misfit("nodelist", "node " + n + " is both required and excluded");
            }
        }
        return new NodeRequest(gres, constraint, req, exc);
    }

    private static boolean counted(FeatureConstraint c) {
        return switch (c) {
            case FeatureConstraint.Feature f -> f.count() > 0;
            case FeatureConstraint.Counted k -> true;
            case FeatureConstraint.AllOf a -> a.parts().stream().anyMatch(NodeRequest::counted);
            case FeatureConstraint.AnyOf a -> a.parts().stream().anyMatch(NodeRequest::counted);
            case FeatureConstraint.Matching m -> counted(m.inner());
        };
    }

    /**
     * Expands a host list of configured nodes into {@code out}, duplicates dropped; returns the problem, or null when
     * every name is a node of the cluster.
     */
    private static Misfit nodes(String hostlist, String field, Set<String> nodeNames, List<String> out) {
        if (hostlist.isBlank()) {
            return null;
        }
        List<String> names;
        try {
            names = Hostlist.expand(hostlist.trim());
        } catch (IllegalArgumentException e) {
            return new Misfit(field, "Invalid node name specified: " + e.getMessage());
        }
        for (String n : names) {
            if (!nodeNames.contains(n)) {
                return new Misfit(field, "Invalid node name specified: " + n + " is not a node of this cluster");
            }
            if (!out.contains(n)) {
                out.add(n);
            }
        }
        return null;
    }

    /** Whether a node has every requested GRES in the requested count, and the constraint admits its features. */
    boolean admits(NodeConfig node) {
        for (GresSpec g : gres) {
            if (g.availableIn(node.gres()) < g.count()) {
                return false;
            }
        }
        return constraint.map(c -> c.admits(new java.util.HashSet<>(node.features()))).orElse(true);
    }
}
