package dev.gantry.agent.runtime;

import dev.gantry.agent.process.CgroupContainment;
import dev.gantry.agent.process.CgroupLayout;
import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.FavorDynmods;
import dev.gantry.agent.process.ProcessGroupContainment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the containment at start-up and logs why: {@code auto} takes cgroups where this agent can create them
 * (v2, v2 with v1's memory controller, or v1) and falls back to process groups; {@code cgroup} insists on cgroups
 * (start-up fails without); {@code process_group} never uses them.
 */
final class ContainmentChoice {

    private static final Logger LOG = LoggerFactory.getLogger(ContainmentChoice.class);

    private ContainmentChoice() {}

    /**
     * @param favorDynmods {@code yes}: when the layout uses cgroup v2, set its mount's favordynmods option unless it
     *     is there ({@link FavorDynmods}: a launch's move into its cgroup then skips an RCU grace period); {@code no}:
     *     leave the host's mount alone
     */
    static Containment choose(String wanted, String favorDynmods, String nodeName, java.nio.file.Path spoolDir) {
        boolean favor = yesOrNo("GANTRY_AGENT_CGROUP_FAVORDYNMODS", favorDynmods);
        String mode = wanted == null || wanted.isBlank() ? "auto" : wanted.trim().toLowerCase(Locale.ROOT);
        if (mode.equals(ProcessGroupContainment.MODE)) {
            LOG.info("containment: process groups (GANTRY_AGENT_CONTAINMENT={})", wanted);
            return new ProcessGroupContainment();
        }
        if (!mode.equals("auto") && !mode.equals("cgroup")) {
            throw new AgentConfigurationException("GANTRY_AGENT_CONTAINMENT=" + wanted + ": expected auto, cgroup or process_group");
        }
        List<String> notes = new ArrayList<>();
        Optional<CgroupLayout> layout = CgroupLayout.detect(CgroupLayout.scopeName(nodeName, spoolDir), notes);
        notes.forEach(n -> LOG.info("cgroups: {}", n));
        if (layout.isPresent()) {
            LOG.info("containment: {}", layout.get().describe());
            if (layout.get().unified().isPresent()) {
                favorDynmods(favor);
            }
            return new CgroupContainment(layout.get());
        }
        if (mode.equals("cgroup")) {
            throw new AgentConfigurationException("GANTRY_AGENT_CONTAINMENT=cgroup but no cgroup is writable: " + String.join("; ", notes));
        }
        LOG.warn("containment: process groups (no writable cgroup: {}); a process that leaves its group escapes, memory is not limited",
                String.join("; ", notes));
        return new ProcessGroupContainment();
    }

    private static void favorDynmods(boolean wanted) {
        if (!wanted) {
            LOG.info("cgroups: favordynmods left as it is (GANTRY_AGENT_CGROUP_FAVORDYNMODS=no){}", FavorDynmods.isSet() ? ""
                    : "; a launch after a quiet spell waits for an RCU grace period (about 10 ms) when its process moves into its cgroup");
            return;
        }
        switch (FavorDynmods.ensure()) {
            case FavorDynmods.Outcome.AlreadySet a -> LOG.info("cgroups: {} has favordynmods", a.mountPoint());
            case FavorDynmods.Outcome.Set set -> LOG.info("cgroups: remounted {} with favordynmods: moving a launch's process "
                    + "into its cgroup no longer waits for an RCU grace period", set.mountPoint());
            case FavorDynmods.Outcome.NotSet n -> LOG.warn("cgroups: cannot set favordynmods on {} ({}); a launch after a quiet spell waits for "
                    + "an RCU grace period (about 10 ms) when its process moves into its cgroup", n.mountPoint(), n.why());
            case FavorDynmods.Outcome.NoCgroup2 none -> { }
        }
    }

    static boolean yesOrNo(String variable, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "yes", "true", "1", "" -> true;
            case "no", "false", "0" -> false;
            default -> throw new AgentConfigurationException(variable + "=" + value + ": expected yes or no");
        };
    }
}
