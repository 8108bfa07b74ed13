package dev.gantry.common.files;

import com.sun.security.auth.module.UnixSystem;

/** The user this process runs as. */
public final class LocalUser {

    private static final long UID = new UnixSystem().getUid();

    private LocalUser() {}

    /** This process's uid (real and effective: Gantry's processes are not setuid). */
    public static long uid() {
        return UID;
    }

    public static boolean isRoot() {
        return UID == 0;
    }
}
