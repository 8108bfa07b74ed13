package dev.gantry.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;

/**
 * A private munged (MUNGE, as every Slurm site runs it) for one test class: its own key and socket, stopped at close.
 * Debian's munge package is installed on first use when missing (kept so that CI, whose image lacks munge, still runs
 * the MUNGE tests); the test is skipped where that is impossible, e.g. not as root (README, "Tests").
 */
final class Munged implements AutoCloseable {

    final Path socket;
    private final Path pidFile;

    private Munged(Path socket, Path pidFile) {
        this.socket = socket;
        this.pidFile = pidFile;
    }

    static Munged start(Path dir) throws Exception {
        if (!Files.isExecutable(Path.of("/usr/sbin/munged"))) {
            LocalUsers.run(List.of("sh", "-c", "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq munge"));
        }
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/munged")) && Files.isExecutable(Path.of("/usr/bin/munge")),
                "munge is not installed and cannot be");
        Files.createDirectories(dir);
        // munged wants its socket's directory 0755 and every directory above it searchable by all (users reach it)
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (Path up = dir.getParent(); up != null; up = up.getParent()) {
            var mode = Files.getPosixFilePermissions(up);
            if (!mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)
                    || !mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_EXECUTE)) {
                LocalUsers.run(List.of("chmod", "a+x", up.toString()));
            }
        }
        byte[] key = new byte[1024];
        new SecureRandom().nextBytes(key);
        Path keyFile = dir.resolve("munge.key");
        Files.write(keyFile, key);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        Path socket = dir.resolve("munge.socket");
        Path pid = dir.resolve("munged.pid");
        Shell.Result r = LocalUsers.run(List.of("/usr/sbin/munged", "--socket=" + socket, "--key-file=" + keyFile,
                "--pid-file=" + pid, "--log-file=" + dir.resolve("munged.log"), "--seed-file=" + dir.resolve("munged.seed"),
                "--num-threads=2"));
        assumeTrue(r.exit() == 0, "munged did not start: " + r);
        Munged munged = new Munged(socket, pid);
        TestCluster.awaitTrue(() -> LocalUsers.run(List.of("/usr/bin/munge", "-n", "--socket=" + socket)).exit() == 0,
                "munged answers on " + socket);
        return munged;
    }

    /** A credential made by {@code user} (its uid and gid) through this munged. */
    String credentialOf(LocalUsers.User user) throws Exception {
        Shell.Result r = LocalUsers.as(user, Path.of("/"), java.util.Map.of(), "/usr/bin/munge", "-n", "--socket=" + socket);
        if (r.exit() != 0) {
            throw new IllegalStateException("munge -n as " + user.name() + ": " + r);
        }
        return r.out().trim();
    }

    /** Stops munged and waits until it is gone (it removes its socket on the way out). */
    @Override
    public void close() throws Exception {
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroy();
                try {
                    p.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (Exception e) {
                    p.destroyForcibly();
                }
            });
        }
    }
}
