package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.common.files.LocalUser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a local cluster's agents spool: in memory where the host has /dev/shm, one directory per run directory. */
class AgentSpoolTest {

    @TempDir
    Path tmp;

    @Test
    void inMemory_namedAfterTheRunDirectory_soTwoClustersNeverShareIt() {
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm")), "no writable /dev/shm");
        Path a = LocalCluster.agentSpool(Path.of("/tmp/run-a"));

        assertTrue(a.startsWith("/dev/shm"), a.toString());
        assertEquals(a, LocalCluster.agentSpool(Path.of("/tmp/../tmp/run-a")), "the same run directory, however spelled");
        assertNotEquals(a, LocalCluster.agentSpool(Path.of("/tmp/run-b")));
    }

    @Test
    void asRoot_theSpoolLetsJobUsersPassThrough_andListNothing() throws Exception {
        assumeTrue(LocalUser.isRoot(), "as root only");
        Path spool = tmp.resolve("gantry-spool-x");

        LocalCluster.prepareSpool(spool);

        assertEquals("rwx--x--x", PosixFilePermissions.toString(Files.getPosixFilePermissions(spool)));
    }

    @Test
    void aSpoolAnotherUserPlanted_isRefused() throws Exception {
        assumeTrue(LocalUser.isRoot(), "needs root to act as another user");
        int other = otherUser();
        Path planted = Files.createDirectory(tmp.resolve("gantry-spool-y"));
        Files.setAttribute(planted, "unix:uid", other);

        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> LocalCluster.prepareSpool(planted));

        assertTrue(e.getMessage().contains("owned by uid " + other), e.getMessage());
    }

    /** gantry-t1's uid, created if missing (the tests run as root in CI); skipped where useradd fails. */
    private static int otherUser() throws Exception {
        if (uid("gantry-t1") < 0) {
            new ProcessBuilder("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", "gantry-t1").start().waitFor();
        }
        int uid = uid("gantry-t1");
        assumeTrue(uid > 0, "useradd gantry-t1 failed");
        return uid;
    }

    private static int uid(String user) throws Exception {
        Process p = new ProcessBuilder("id", "-u", user).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        return p.waitFor() == 0 ? Integer.parseInt(out) : -1;
    }
}
