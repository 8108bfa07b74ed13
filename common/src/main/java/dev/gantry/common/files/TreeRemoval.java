package dev.gantry.common.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Removes a directory tree as root when other users own parts of it (a job's spool directory), without ever
 * following their links: every directory is opened relative to its parent's open descriptor with O_NOFOLLOW, and
 * every entry removed with unlinkat(2) relative to it ({@link SecureDirectoryStream}). A path-based walk
 * ({@code Files.walk} then {@code delete}) can be turned, by renaming a directory to a link between the listing and
 * the delete, into removing any file on the host.
 */
public final class TreeRemoval {

    private TreeRemoval() {}

    /**
     * Removes {@code root} and everything below it; a link anywhere (including {@code root}) is removed, never
     * followed. No-op when {@code root} does not exist.
     *
     * @throws IOException the first failure; what could be removed before it is gone
     */
    public static void delete(Path root) throws IOException {
        Path absolute = root.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null) {
            throw new IOException("will not remove " + absolute);
        }
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(parent)) {
            if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
                throw new IOException("this platform has no race-free removal (SecureDirectoryStream): not removing " + absolute);
            }
            deleteEntry(secure, absolute.getFileName());
        }
    }

    private static void deleteEntry(SecureDirectoryStream<Path> parent, Path name) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = parent.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
        } catch (NoSuchFileException gone) {
            return;
        }
        if (!attributes.isDirectory()) {
            parent.deleteFile(name); // unlinkat: a link is removed, not followed
            return;
        }
        // opened with O_NOFOLLOW: a directory swapped for a link meanwhile fails here instead of being followed
        try (SecureDirectoryStream<Path> dir = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            for (Path entry : dir) {
                deleteEntry(dir, entry.getFileName());
            }
        }
        parent.deleteDirectory(name);
    }
}
