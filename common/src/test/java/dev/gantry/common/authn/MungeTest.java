package dev.gantry.common.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** libmunge through JNA against a real munged of the test's own (skipped where munge is not installed). */
class MungeTest {

    Path dir;
    Path socket;
    Process munged;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/munged")) && Munge.available(), "munge is not installed");
        // munged wants every directory above its socket searchable by all
        dir = Files.createDirectories(Path.of("target", "munge-test-" + ProcessHandle.current().pid()).toAbsolutePath());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        byte[] key = new byte[1024];
        new SecureRandom().nextBytes(key);
        Files.write(dir.resolve("munge.key"), key);
        Files.setPosixFilePermissions(dir.resolve("munge.key"), PosixFilePermissions.fromString("rw-------"));
        socket = dir.resolve("munge.socket");
        munged = new ProcessBuilder("/usr/sbin/munged", "--foreground", "--socket=" + socket, "--key-file=" + dir.resolve("munge.key"),
                "--pid-file=" + dir.resolve("munged.pid"), "--log-file=" + dir.resolve("munged.log"),
                "--seed-file=" + dir.resolve("munged.seed"), "--num-threads=1").redirectErrorStream(true)
                .redirectOutput(dir.resolve("munged.out").toFile()).start();
        for (int i = 0; i < 100 && !Files.exists(socket); i++) {
            Thread.sleep(50);
        }
        assumeTrue(Files.exists(socket), "munged did not start: " + Files.readString(dir.resolve("munged.out")));
    }

    @AfterEach
    void stop() throws Exception {
        if (munged != null) {
            munged.destroy();
            munged.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aCredentialDecodesToItsMaker_once() throws Exception {
        Munge munge = new Munge(Optional.of(socket.toString()));
        String credential = munge.encode();

        Munge.Decoded who = munge.decode(credential);

        assertEquals((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"), (int) who.uid());
        AuthenticationException replay = assertThrows(AuthenticationException.class, () -> munge.decode(credential));
        assertTrue(replay.getMessage().toLowerCase().contains("replay"), replay.getMessage());
        AuthenticationException garbage = assertThrows(AuthenticationException.class, () -> munge.decode("MUNGE:garbage:"));
        assertTrue(garbage.getMessage().startsWith("MUNGE credential refused"), garbage.getMessage());
    }
}
