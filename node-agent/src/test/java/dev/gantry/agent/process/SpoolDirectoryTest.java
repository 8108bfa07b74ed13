package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

class SpoolDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void asRoot_theSpoolAndWhatIsMadeAboveIt_letJobUsersPassThrough_andListNothing() throws Exception {
        assumeTrue(LocalUser.isRoot(), "as root only");

        Path spool = SpoolDirectory.prepare(tmp.resolve("gantry-spool-x/n1"));

        assertEquals("rwx--x--x", mode(spool));
        assertEquals("rwx--x--x", mode(spool.getParent()));
    }

    @Test
    void aSpoolAnotherUserOwns_isRefused() throws Exception {
        int other = otherUser();
        Path planted = Files.createDirectories(tmp.resolve("gantry-spool-y/n1"));
        Files.setAttribute(planted, "unix:uid", other);

        IOException e = assertThrows(IOException.class, () -> SpoolDirectory.prepare(planted));

        assertTrue(e.getMessage().contains("owned by uid " + other), e.getMessage());
    }

    @Test
    void aSpoolBelowADirectoryOthersCanWrite_isRefused() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        IOException e = assertThrows(IOException.class, () -> SpoolDirectory.prepare(open.resolve("n1")));

        assertTrue(e.getMessage().contains("writable by others"), e.getMessage());
    }

    @Test
    void underRootsStickyTmp_isAccepted() throws Exception {
        Path sticky = Files.createDirectory(tmp.resolve("shm"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        assumeTrue(LocalUser.isRoot(), "a sticky directory counts only when root owns it");

        Path spool = SpoolDirectory.prepare(sticky.resolve("gantry-spool-z/n1"));

        assertTrue(Files.isDirectory(spool));
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    /** gantry-t1's uid, created if missing (the tests run as root in CI); skipped where that is impossible. */
    static int otherUser() throws Exception {
        assumeTrue(LocalUser.isRoot(), "needs root to act as another user");
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
