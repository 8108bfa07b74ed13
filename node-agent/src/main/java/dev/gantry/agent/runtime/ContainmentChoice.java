package dev.gantry.agent.runtime;

import dev.gantry.agent.process.CgroupContainment;
import dev.gantry.agent.process.CgroupLayout;
import dev.gantry.agent.process.Containment;
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

    static Containment choose(String wanted, String nodeName, java.nio.file.Path spoolDir) {
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
            return new CgroupContainment(layout.get());
        }
        if (mode.equals("cgroup")) {
            throw new AgentConfigurationException("GANTRY_AGENT_CONTAINMENT=cgroup but no cgroup is writable: " + String.join("; ", notes));
        }
        LOG.warn("containment: process groups (no writable cgroup: {}); a process that leaves its group escapes, memory is not limited",
                String.join("; ", notes));
        return new ProcessGroupContainment();
    }
}
