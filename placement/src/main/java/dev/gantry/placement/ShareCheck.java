package dev.gantry.placement;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks what a proposal gives a job on one node against what the node's jobs hold now ({@link NodeUse}): the node
 * takes the share by {@link NodeFit} (the rule select-svc proposed with), the share is at least what the job must get
 * there (memory for its CPUs, every GRES asked for), and the units and GRES it names exist and are free. Pure.
 */
public final class ShareCheck {
    private ShareCheck() {}

    /**
     * Empty when {@code node} can give {@code offered} to a job whose demand on it is {@code asked} (its CPUs and memory
     * are replaced by the offer's; its GRES are what must be given); otherwise why not.
     */
    public static Optional<String> check(NodeUse node, NodeDemand asked, OfferedShare offered) {
        CpuLayout layout = node.layout(0);
        ResourceUnit unit = node.consumables().unit();
        NodeDemand given = new NodeDemand(offered.cpus(), offered.memoryMb(), 0, List.of(), asked.wholeNode(),
                asked.maxShare(), asked.partition(), asked.owner());
        NodeDemand needs = new NodeDemand(offered.cpus(), asked.memPerCpuMb() > 0 ? 0 : asked.memoryMb(),
                asked.memPerCpuMb(), asked.gres(), asked.wholeNode(), asked.maxShare(), asked.partition(), asked.owner());
        long neededMemory = needs.memoryTaken(layout, unit);
        if (offered.cpus() < 1) {
            return Optional.of(cpus(node, given, offered));
        }
        NodeFit.Misfit misfit = NodeFit.misfit(node, 0, given);
        if (misfit != null) {
            return Optional.of(switch (misfit) {
                case UNUSABLE -> "node " + node.name() + " is not usable";
                case HELD_WHOLE -> "node " + node.name() + " is held whole by another job";
                case OTHER_USER -> "node " + node.name() + " runs another user's job and "
                        + (asked.owner().exclusiveUser() ? "the job is" : "that job is")
                        + " user-exclusive (--exclusive=user or ExclusiveUser=YES)";
                case NOT_IDLE -> "node " + node.name() + " is not idle; the job wants whole nodes";
                case TOO_SMALL, CPUS -> offered.cpus() > layout.cpus() || misfit == NodeFit.Misfit.CPUS
                        ? cpus(node, given, offered) : memory(node, offered, neededMemory);
                case MEMORY -> memory(node, offered, neededMemory);
                case GRES -> "node " + node.name() + " lacks GRES"; // never: the offer's GRES are checked below
            });
        }
        if (node.consumables().memoryTracked() && offered.memoryMb() < neededMemory) {
            return Optional.of(memory(node, offered, neededMemory));
        }
        Optional<String> units = units(node, given, offered);
        if (units.isPresent()) {
            return units;
        }
        return gres(node, asked.gres(), offered);
    }

    private static String cpus(NodeUse node, NodeDemand given, OfferedShare offered) {
        long free = node.consumables().unit().cpusOf(node.layout(0), node.availableUnits(0, given));
        return "node " + node.name() + " has " + free + " free CPUs, not " + offered.cpus();
    }

    private static String memory(NodeUse node, OfferedShare offered, long needed) {
        return "node " + node.name() + " has " + node.freeMemoryMb(0) + "M free, not " + offered.memoryMb() + "M ("
                + needed + "M needed)";
    }

    /** Named units: distinct, on the node, enough for the CPUs, and each shareable by the job. */
    private static Optional<String> units(NodeUse node, NodeDemand given, OfferedShare offered) {
        if (offered.units().isEmpty()) {
            return Optional.empty();
        }
        Set<Integer> distinct = new HashSet<>();
        for (int u : offered.units()) {
            if (u < 0 || u >= node.unitCount() || !distinct.add(u)) {
                return Optional.of("node " + offered.node() + ": core " + u + " is not a core of the node or is given twice");
            }
            if (!node.unitShareable(u, given)) {
                return Optional.of("node " + offered.node() + ": core " + u + " is already allocated");
            }
        }
        if (node.consumables().unit().cpusOf(node.layout(0), distinct.size()) < offered.cpus()) {
            return Optional.of("node " + offered.node() + ": " + distinct.size() + " core(s) cannot give " + offered.cpus()
                    + " CPUs");
        }
        return Optional.empty();
    }

    /** GRES given exist on the node and are free; every GRES asked for is given in full. */
    private static Optional<String> gres(NodeUse node, List<GresRequest> asked, OfferedShare offered) {
        List<GresPool> pools = node.gresPools(0);
        for (OfferedShare.GresTaken g : offered.gres()) {
            long configured = 0;
            long used = 0;
            for (int p = 0; p < pools.size(); p++) {
                if (pools.get(p).name().equals(g.name()) && pools.get(p).type().equals(g.type())) {
                    configured += pools.get(p).count();
                    used += node.gresUsed(0, p);
                }
            }
            long free = configured - used;
            if (g.count() < 0 || g.count() > free) {
                return Optional.of("node " + offered.node() + " has " + Math.max(0, free) + " free " + g.key() + ", not "
                        + g.count());
            }
        }
        for (GresRequest want : asked) {
            long granted = offered.gres().stream().filter(g -> want.name().equals(g.name())
                    && (want.type().isEmpty() || want.type().equals(g.type()))).mapToLong(OfferedShare.GresTaken::count).sum();
            if (granted < want.count()) {
                return Optional.of("node " + offered.node() + " grants " + granted + " of " + want);
            }
        }
        return Optional.empty();
    }
}
