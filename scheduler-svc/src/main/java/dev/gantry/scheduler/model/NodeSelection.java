package dev.gantry.scheduler.model;

import dev.gantry.common.resources.GresSpec;
import java.util.List;

/**
 * Which nodes, and what on them, a job asks for beyond CPUs and memory (sbatch --gres, --exclusive, -C, -w, -x,
 * --contiguous, -s). Checked at submit against the partition; select-svc honours it when placing.
 *
 * @param gres per node, each with a count of at least 1
 * @param constraint the --constraint expression as given, empty for none
 * @param requiredNodes -w expanded: every one must be in the allocation
 * @param excludedNodes -x expanded: none may be
 */
public record NodeSelection(List<GresSpec> gres, boolean exclusive, String constraint, List<String> requiredNodes,
        List<String> excludedNodes, boolean contiguous, boolean oversubscribe) {

    public static final NodeSelection NONE = new NodeSelection(List.of(), false, "", List.of(), List.of(), false, false);

    public NodeSelection {
        gres = List.copyOf(gres);
        requiredNodes = List.copyOf(requiredNodes);
        excludedNodes = List.copyOf(excludedNodes);
    }
}
