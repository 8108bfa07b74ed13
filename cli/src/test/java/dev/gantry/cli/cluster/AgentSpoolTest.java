package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Where a local cluster's agents spool: in memory where the host has /dev/shm, one directory per run directory. */
class AgentSpoolTest {

    @Test
    void inMemory_namedAfterTheRunDirectory_soTwoClustersNeverShareIt() {
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm")), "no writable /dev/shm");
        Path a = LocalCluster.agentSpool(Path.of("/tmp/run-a"));

        assertTrue(a.startsWith("/dev/shm"), a.toString());
        assertEquals(a, LocalCluster.agentSpool(Path.of("/tmp/../tmp/run-a")), "the same run directory, however spelled");
        assertNotEquals(a, LocalCluster.agentSpool(Path.of("/tmp/run-b")));
    }
}
