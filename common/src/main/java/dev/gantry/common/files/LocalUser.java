package dev.gantry.common.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The user this process runs as. */
public final class LocalUser {

    private static final long UID = effectiveUid();

    private LocalUser() {}

    /** This process's effective uid. */
    public static long uid() {
        return UID;
    }

    public static boolean isRoot() {
        return UID == 0;
    }

    /**
     * From /proc/self/status ("Uid: real effective saved fs"), which every Linux has: no JNA, and no
     * jdk.security.auth module, which a trimmed runtime image may lack.
     */
    private static long effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
                }
            }
            throw new IllegalStateException("/proc/self/status has no Uid: line");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/status: " + e.getMessage(), e);
        }
    }
}
