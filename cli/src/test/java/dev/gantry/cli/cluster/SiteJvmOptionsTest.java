package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GANTRY_<KIND>_JAVA_OPTS reach the services of that kind, and only them. */
class SiteJvmOptionsTest {

    private static final Map<String, String> ENV = Map.of(
            "GANTRY_SCHEDULER_JAVA_OPTS", "  -Xmx3g   -XX:+AlwaysPreTouch ",
            "GANTRY_AGENT_JAVA_OPTS", "-Xmx128m",
            "GANTRY_SELECT_JAVA_OPTS", "");

    @Test
    void eachKindGetsItsOwnOptions_split_onWhitespace() {
        assertEquals(List.of("-Xmx3g", "-XX:+AlwaysPreTouch"), LocalCluster.siteJvmOptions("scheduler", ENV));
        assertEquals(List.of("-Xmx3g", "-XX:+AlwaysPreTouch"), LocalCluster.siteJvmOptions("scheduler-backup", ENV),
                "the standby controller is a controller too");
        assertEquals(List.of("-Xmx128m"), LocalCluster.siteJvmOptions("agent-n12", ENV));
        assertEquals(List.of(), LocalCluster.siteJvmOptions("select", ENV), "empty: none");
        assertEquals(List.of(), LocalCluster.siteJvmOptions("gang", ENV), "unset: none");
        assertEquals(List.of(), LocalCluster.siteJvmOptions("database", ENV));
    }
}
