package dev.gantry.common.files;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Tests that need a second, unprivileged user: {@code gantry-t1}, created when missing (the tests run as root in CI). */
final class LocalUsers {

    static final String OTHER = "gantry-t1";

    private LocalUsers() {}

    /** The uid of {@link #OTHER}, created if missing; the test is skipped where that is impossible (not root). */
    static int other() throws IOException, InterruptedException {
        assumeTrue(LocalUser.isRoot(), "needs root to create and act as another user");
        if (uid(OTHER) < 0) {
            new ProcessBuilder("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER)
                    .redirectErrorStream(true).start().waitFor(); // "already exists" from a concurrent run is fine
        }
        int uid = uid(OTHER);
        assumeTrue(uid > 0, "useradd " + OTHER + " failed");
        return uid;
    }

    private static int uid(String user) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("id", "-u", user).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        return p.waitFor() == 0 ? Integer.parseInt(out) : -1;
    }
}
