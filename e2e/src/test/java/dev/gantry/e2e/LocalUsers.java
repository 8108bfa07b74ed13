package dev.gantry.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Unprivileged local users for tests that act as an attacker would: created when missing ({@code useradd}, as root,
 * idempotent: another test run may create them at the same time), and commands run as them with {@code runuser}.
 * Tests are skipped (JUnit assumption) where that is impossible: not root, or no useradd.
 */
final class LocalUsers {

    private LocalUsers() {}

    /** A user's ids. */
    record User(String name, int uid, int gid) {}

    /** The user {@code name}, created (no home, no login shell) if missing. */
    static User ensure(String name) throws Exception {
        assumeTrue("0".equals(run(List.of("id", "-u")).out().strip()), "needs root to create and act as other users");
        if (run(List.of("id", "-u", name)).exit() != 0) {
            run(List.of("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name)); // "exists" from a racing run is fine
        }
        Shell.Result uid = run(List.of("id", "-u", name));
        assumeTrue(uid.exit() == 0, "cannot create user " + name + ": " + uid);
        int gid = Integer.parseInt(run(List.of("id", "-g", name)).out().strip());
        return new User(name, Integer.parseInt(uid.out().strip()), gid);
    }

    /** Makes {@code user} a member of the group {@code group}, created if missing. */
    static void addToGroup(User user, String group) throws Exception {
        run(List.of("groupadd", "-f", group));
        Shell.Result r = run(List.of("usermod", "-a", "-G", group, user.name()));
        assumeTrue(r.exit() == 0, "cannot add " + user.name() + " to " + group + ": " + r);
    }

    /** Runs {@code command} as {@code user} (runuser: its uid, gid and groups) in {@code cwd} with {@code env} added. */
    static Shell.Result as(User user, Path cwd, Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", user.name(), "--", "env"));
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(List.of(command));
        return run(cmd, cwd);
    }

    static Shell.Result run(List<String> cmd) throws IOException, InterruptedException {
        return run(cmd, Path.of("/"));
    }

    private static Shell.Result run(List<String> cmd, Path cwd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd + " did not finish");
        }
        return new Shell.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
