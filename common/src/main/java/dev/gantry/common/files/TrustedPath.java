package dev.gantry.common.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether nobody but root and this user can change what a path leads to: every directory from / down to it
 * (resolved, links followed) is owned by root or this user and writable by neither its group nor others. What
 * root runs from such a place (the embedded PostgreSQL's binaries) cannot have been swapped by another user.
 *
 * <p>{@link #checkAllowingSticky} also accepts root-owned sticky directories (/tmp, /dev/shm): others can create
 * entries there but not rename or remove this user's.
 */
public final class TrustedPath {

    private static final int GROUP_OR_OTHER_WRITE = 0022;
    private static final int STICKY = 01000;

    private TrustedPath() {}

    /** Empty when {@code path} is trusted as above, else what is wrong, naming the directory. */
    public static Optional<String> check(Path path) throws IOException {
        return check(path, false);
    }

    /** {@link #check}, accepting root-owned sticky directories on the way. */
    public static Optional<String> checkAllowingSticky(Path path) throws IOException {
        return check(path, true);
    }

    private static Optional<String> check(Path path, boolean allowSticky) throws IOException {
        Path real = path.toRealPath();
        for (Path dir = real; dir != null; dir = dir.getParent()) {
            long owner = PrivateFiles.ownerOf(dir);
            int mode = PrivateFiles.modeOf(dir);
            Optional<String> problem = problem(owner, mode, LocalUser.uid(), allowSticky);
            if (problem.isPresent()) {
                return Optional.of(dir + ": " + problem.get());
            }
        }
        return Optional.empty();
    }

    /** The rule for one directory (or the final file): its owner and mode bits, for this user {@code self}. */
    static Optional<String> problem(long owner, int mode, long self, boolean allowSticky) {
        if (owner != 0 && owner != self) {
            return Optional.of("owned by uid " + owner + " (only root" + (self == 0 ? "" : " or uid " + self) + " may own it)");
        }
        if ((mode & GROUP_OR_OTHER_WRITE) != 0 && !(allowSticky && owner == 0 && (mode & STICKY) != 0)) {
            return Optional.of(String.format("writable by %s (mode %04o)",
                    (mode & 0002) != 0 ? "others" : "its group", mode & 07777));
        }
        return Optional.empty();
    }
}
