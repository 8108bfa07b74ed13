package dev.gantry.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The containment settings' values. */
class ContainmentChoiceTest {

    @Test
    void favordynmodsSetting_isYesUnlessSaidNo() {
        assertTrue(ContainmentChoice.yesOrNo("GANTRY_AGENT_CGROUP_FAVORDYNMODS", ""));
        assertTrue(ContainmentChoice.yesOrNo("GANTRY_AGENT_CGROUP_FAVORDYNMODS", "YES"));
        assertFalse(ContainmentChoice.yesOrNo("GANTRY_AGENT_CGROUP_FAVORDYNMODS", "no"));
        assertFalse(ContainmentChoice.yesOrNo("GANTRY_AGENT_CGROUP_FAVORDYNMODS", "false"));
    }

    @Test
    void badValues_areRefusedNamingTheVariable() {
        AgentConfigurationException favor = assertThrows(AgentConfigurationException.class,
                () -> ContainmentChoice.choose("auto", "maybe", "n1", Path.of("/tmp/unused")));
        AgentConfigurationException mode = assertThrows(AgentConfigurationException.class,
                () -> ContainmentChoice.choose("jail", "yes", "n1", Path.of("/tmp/unused")));

        assertEquals("GANTRY_AGENT_CGROUP_FAVORDYNMODS=maybe: expected yes or no", favor.getMessage());
        assertEquals("GANTRY_AGENT_CONTAINMENT=jail: expected auto, cgroup or process_group", mode.getMessage());
    }
}
