package dev.gantry.agent.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.common.posix.PosixAccounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Unprivileged local users for tests that must act as one (an attacker, a second user): created with useradd when
 * missing (the tests run as root), or the test is skipped where that is impossible.
 */
public final class TestUsers {
    private TestUsers() {}

    /** The account {@code name}, created (no home, no login shell) if this host has none. */
    public static PosixAccounts.Account ensure(String name) {
        assumeTrue(PosixAccounts.byUid(0).isPresent() && "root".equals(System.getProperty("user.name")),
                "creating test users needs root");
        if (PosixAccounts.byName(name).isEmpty()) {
            Result r = run(List.of("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name));
            assumeTrue(r.exit() == 0 || PosixAccounts.byName(name).isPresent(), "useradd " + name + ": " + r.output());
        }
        return PosixAccounts.byName(name).orElseThrow();
    }

    /** Runs {@code command} as {@code user} (its uid, gid and groups), returning exit code and output. */
    public static Result runAs(PosixAccounts.Account user, List<String> command) {
        List<String> argv = new ArrayList<>(List.of("setpriv", "--reuid=" + user.uid(), "--regid=" + user.gid(), "--init-groups", "--"));
        argv.addAll(command);
        return run(argv);
    }

    public record Result(int exit, String output) {}

    static Result run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, out + " (timed out)");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
