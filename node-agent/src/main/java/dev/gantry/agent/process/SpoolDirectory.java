package dev.gantry.agent.process;

import dev.gantry.common.files.LocalUser;
import dev.gantry.common.files.PrivateFiles;
import dev.gantry.common.files.TrustedPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's spool directory: where job scripts wait, each job in a directory of its own user (0700), and the
 * agent's {@code state/} (0700). As root it is 0711 (jobs' users pass through to their own directory and list
 * nothing), otherwise 0700; missing directories above it are made the same way. docs/security.md, "Local state".
 */
public final class SpoolDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(SpoolDirectory.class);

    private SpoolDirectory() {}

    /**
     * Creates (or takes) the spool directory, refusing one owned by another user or below a directory others can
     * write (root's sticky /dev/shm and /tmp excepted: others cannot rename what is not theirs there). Idempotent.
     *
     * @return the absolute directory
     * @throws IOException naming the directory and what is wrong
     */
    public static Path prepare(Path spool) throws IOException {
        boolean root = LocalUser.isRoot();
        Set<PosixFilePermission> mode = root ? PrivateFiles.TRAVERSABLE_DIR : PrivateFiles.OWNER_ONLY_DIR;
        Path dir = spool.toAbsolutePath().normalize();
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = dir; p != null && !Files.exists(p); p = p.getParent()) {
            missing.push(p);
        }
        while (!missing.isEmpty()) {
            PrivateFiles.directory(missing.pop(), mode);
        }
        PrivateFiles.directory(dir, mode);
        Optional<String> untrusted = TrustedPath.checkAllowingSticky(dir);
        if (untrusted.isPresent()) {
            throw new IOException("will not keep job scripts in " + dir + ": " + untrusted.get());
        }
        if (root) {
            for (Path p = dir.getParent(); p != null; p = p.getParent()) {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    LOG.warn("{} is not searchable by others: jobs of users other than {} cannot reach their spooled scripts"
                            + " below it and will fail", p, Files.getOwner(p).getName());
                }
            }
        }
        return dir;
    }
}
