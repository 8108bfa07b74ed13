package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.Keys;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The local cluster's agents take their containment mode from slurm.conf's ProctrackType, not the environment. */
class ContainmentFromConfigTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"ProctrackType=proctrack/cgroup, cgroup", "ProctrackType=proctrack/pgid, process_group",
            "ClusterName=c, auto"})
    void proctrackType_choosesTheAgentsContainment(String line, String mode) {
        String proctrack = ConfigParser.parse(Path.of("slurm.conf"), line).get(Keys.PROCTRACK_TYPE);
        assertEquals(mode, LocalCluster.containment(proctrack));
    }
}
