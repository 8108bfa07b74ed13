package dev.gantry.common.config;

import dev.gantry.common.hostlist.Hostlist;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@link ConfigParser}'s PartitionName= lines (https://slurm.schedmd.com/slurm.conf.html, partition
 * configuration): PartitionName=DEFAULT sets defaults for the lines after it; Nodes= names nodes defined on earlier
 * NodeName= lines (or ALL of them). A line with any problem defines no partition. Not thread-safe; one per parse.
 */
final class PartitionParser {

    private static final Set<String> PARTITION_KEYS = Set.of("partitionname", "nodes", "default", "maxtime",
            "defaulttime", "state", "maxnodes", "minnodes", "prioritytier", "priorityjobfactor", "priority",
            "oversubscribe", "shared", "preemptmode", "gracetime", "allowaccounts", "allowqos", "defmempercpu",
            "defmempernode", "maxmempercpu", "maxmempernode", "exclusiveuser", "hidden", "backfillpolicy");

    private final OptionReader options;
    private final LineDefaults defaults = new LineDefaults("partitionname");
    /** The nodes defined so far, by name (the parser's live map: lines are read in file order). */
    private final Map<String, NodeConfig> nodes;
    private final List<PartitionConfig> partitions = new ArrayList<>();

    PartitionParser(NodeResources.Problems problems, Map<String, NodeConfig> nodes) {
        this.options = new OptionReader(problems, ConfSyntax::canonical);
        this.nodes = nodes;
    }

    /** The partitions defined so far, in file order (a live list). */
    List<PartitionConfig> partitions() {
        return partitions;
    }

    /** Reads one logical line whose first key is PartitionName. */
    void line(List<String[]> pairs, int lineNo) {
        Map<String, String> own = ConfSyntax.collect(pairs, PARTITION_KEYS, lineNo, options::report);
        if (defaults.absorb(own)) {
            return;
        }
        String name = own.get("partitionname");
        if (name.isEmpty() || !name.matches("[A-Za-z0-9_.\\-]+")) {
            options.report(lineNo, "PartitionName", "'" + name + "' is not a valid partition name");
            return;
        }
        if (partitions.stream().anyMatch(p -> p.name().equals(name))) {
            options.report(lineNo, "PartitionName", name + " is already defined");
            return;
        }
        Map<String, String> m = defaults.over(own);
        int errorsBefore = options.reported();
        List<String> members = new ArrayList<>();
        String nodeExpr = m.getOrDefault("nodes", "");
        if (nodeExpr.equalsIgnoreCase("ALL")) {
            members.addAll(nodes.keySet());
        } else {
            try {
                Set<String> seen = new LinkedHashSet<>();
                for (String n : Hostlist.expand(nodeExpr)) {
                    if (!nodes.containsKey(n)) {
                        options.report(lineNo, "Nodes", "unknown node " + n + " (define it on a NodeName= line first)");
                    } else if (seen.add(n)) {
                        members.add(n);
                    }
                }
            } catch (IllegalArgumentException e) {
                options.report(lineNo, "Nodes", e.getMessage());
            }
        }
        boolean isDefault = options.get(m, "default", Values::yesNo, false, lineNo);
        long maxTime = options.get(m, "maxtime", Values::timeLimit, -1L, lineNo);
        long defaultTime = options.get(m, "defaulttime", Values::timeLimit, -1L, lineNo);
        PartitionState state = options.get(m, "state", PartitionParser::state, PartitionState.UP, lineNo);
        int maxNodes = options.get(m, "maxnodes", Values.intOrUnlimited(0, Integer.MAX_VALUE), -1, lineNo);
        int minNodes = options.get(m, "minnodes", Values.intRange(0, Integer.MAX_VALUE), 0, lineNo);
        int tier = options.get(m, "prioritytier", Values.intRange(0, 65533),
                options.get(m, "priority", Values.intRange(0, 65533), 1, lineNo), lineNo);
        int jobFactor = options.get(m, "priorityjobfactor", Values.intRange(0, 65533), 1, lineNo);
        OverSubscribe overSubscribe = options.get(m, "oversubscribe", OverSubscribe::parse,
                options.get(m, "shared", OverSubscribe::parse, OverSubscribe.NO, lineNo), lineNo);
        PreemptMode preemptMode = options.get(m, "preemptmode", Values::preemptMode, null, lineNo);
        long grace = options.get(m, "gracetime", Values.seconds(0, 65533), 0L, lineNo);
        List<String> allowAccounts = options.get(m, "allowaccounts", Values::list, List.of("ALL"), lineNo);
        List<String> allowQos = options.get(m, "allowqos", Values::list, List.of("ALL"), lineNo);
        long defMemPerCpu = options.get(m, "defmempercpu", Values::memoryMb, 0L, lineNo);
        long defMemPerNode = options.get(m, "defmempernode", Values::memoryMb, 0L, lineNo);
        long maxMemPerCpu = options.get(m, "maxmempercpu", Values::memoryMb, 0L, lineNo);
        long maxMemPerNode = options.get(m, "maxmempernode", Values::memoryMb, 0L, lineNo);
        boolean exclusiveUser = options.get(m, "exclusiveuser", Values::yesNo, false, lineNo);
        boolean hidden = options.get(m, "hidden", Values::yesNo, false, lineNo);
        BackfillPolicy backfillPolicy = options.get(m, "backfillpolicy", raw -> BackfillPolicy.valueOf(
                Values.oneOf("FIRSTFIT", "PREEMPT").apply(raw)), BackfillPolicy.FIRSTFIT, lineNo);
        if (options.reported() > errorsBefore) {
            return;
        }
        // DefaultTime=UNLIMITED (-1, as when unset) is longer than any finite MaxTime
        boolean unlimitedDefault = defaultTime < 0 && m.containsKey("defaulttime");
        if (maxTime >= 0 && (defaultTime > maxTime || unlimitedDefault)) {
            options.report(lineNo, "DefaultTime", "is longer than MaxTime");
            return;
        }
        if (maxNodes >= 0 && minNodes > maxNodes) {
            options.report(lineNo, "MinNodes", "is larger than MaxNodes");
            return;
        }
        if (isDefault) {
            for (PartitionConfig p : partitions) {
                if (p.isDefault()) {
                    options.report(lineNo, "Default", "partition " + p.name() + " (line " + p.line() + ") is already the default");
                    return;
                }
            }
        }
        partitions.add(new PartitionConfig(name, members, isDefault, maxTime, defaultTime, state, maxNodes, minNodes, tier,
                jobFactor, overSubscribe, preemptMode, grace, allowAccounts, allowQos, defMemPerCpu, defMemPerNode,
                maxMemPerCpu, maxMemPerNode, exclusiveUser, hidden, backfillPolicy, lineNo));
    }

    private static PartitionState state(String raw) {
        return PartitionState.valueOf(Values.oneOf("UP", "DOWN", "DRAIN", "INACTIVE").apply(raw));
    }


}
