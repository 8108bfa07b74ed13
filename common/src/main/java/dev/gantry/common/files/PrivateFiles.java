package dev.gantry.common.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Directories only their owner enters and files only their owner reads.
 *
 * <p>Modes are set explicitly after creation, so the process's umask does not matter.
 */
public final class PrivateFiles {

    /** rwx------ */
    public static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    /** rwx--x--x: others may pass through to what they own below, and list nothing. */
    public static final Set<PosixFilePermission> TRAVERSABLE_DIR = PosixFilePermissions.fromString("rwx--x--x");
    /** rw------- */
    public static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private PrivateFiles() {}

    /**
     * Creates {@code dir} (and missing parents, with the default mode) or takes the existing one, checks that this
     * user owns it and is not a link, and sets its mode to {@code mode}. Idempotent.
     *
     * @throws IOException naming the directory and what is wrong (owned by another user, not a directory)
     */
    public static Path directory(Path dir, Set<PosixFilePermission> mode) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)) {
            if (absolute.getParent() != null) {
                Files.createDirectories(absolute.getParent());
            }
            try {
                Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(mode));
            } catch (FileAlreadyExistsException e) {
                // made meanwhile (another process), or a link or file: checked below
            }
        }
        if (!Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(absolute + ": not a directory (or a symbolic link)");
        }
        long owner = ownerOf(absolute);
        if (owner != LocalUser.uid()) {
            throw new IOException(absolute + ": owned by uid " + owner + ", not by this user (uid " + LocalUser.uid()
                    + "); remove it or choose another directory");
        }
        Files.setPosixFilePermissions(absolute, mode);
        return absolute;
    }

    /** {@link #directory} with mode 0700. */
    public static Path ownerOnlyDirectory(Path dir) throws IOException {
        return directory(dir, OWNER_ONLY_DIR);
    }

    /**
     * Writes a secret whole: into a new 0600 file beside {@code file}, synced, then renamed over it, so that it is
     * never readable by others and never seen half-written.
     */
    public static void writeSecret(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp); // left by a crash, perhaps with wider permissions
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
        Files.setPosixFilePermissions(tmp, OWNER_ONLY_FILE);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            ch.write(StandardCharsets.UTF_8.encode(content));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Sets an existing file's mode to 0600 (a key written by an older version with a wider mode); no-op when absent. */
    public static void restrict(Path file) throws IOException {
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY_FILE);
        }
    }

    static long ownerOf(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
    }

    static int modeOf(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    }
}
