package dev.gantry.agent.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * cgroup v2's {@code favordynmods} mount option (Linux 6.0 and later; Documentation/admin-guide/cgroup-v2.rst,
 * "Reduce the latencies of dynamic cgroup modifications such as task migrations … at the cost of making hot path
 * operations such as forks and exits more expensive").
 *
 * <p>Without it, moving a process into a cgroup (the agent's write to {@code cgroup.procs}, once per job launch)
 * takes the kernel's global threadgroup rwsem for writing, which first waits for an RCU grace period when no writer
 * came within the last one: 10–16 ms (at times 21–28) on this project's 2-core hosts for a launch after a quiet spell,
 * such as a preemptor's, against about 0.1 ms with the option (docs/benchmarks.md, "Preemption latency");
 * back-to-back launches keep the rwsem ready and gain nothing. The option belongs to
 * the cgroup2 superblock, which the whole host shares: setting it is a remount that keeps every other option of the
 * mount ({@code nsdelegate}, {@code memory_recursiveprot}, {@code nosuid} …), which is why the command line names
 * them all. Kernels before 6.0 refuse the option; the agent then runs as before and says so.
 */
public final class FavorDynmods {

    /** The option's name, as the kernel spells it in mount options and /proc/self/mountinfo. */
    public static final String OPTION = "favordynmods";

    /** What {@link #ensure} found or did. */
    public sealed interface Outcome {
        /** The cgroup2 mount at {@code mountPoint} already had the option. */
        record AlreadySet(String mountPoint) implements Outcome {}

        /** The agent remounted it with the option. */
        record Set(String mountPoint) implements Outcome {}

        /** The remount failed or did not take (an older kernel, no privilege): migrations wait as before. */
        record NotSet(String mountPoint, String why) implements Outcome {}

        /** No cgroup2 mount: nothing to do. */
        record NoCgroup2() implements Outcome {}
    }

    /** One cgroup2 line of /proc/self/mountinfo: where it is mounted, its per-mount and its superblock options. */
    record Cgroup2Mount(String mountPoint, List<String> mountOptions, List<String> superOptions) {
        boolean favorsDynmods() {
            return superOptions.contains(OPTION);
        }

        /**
         * The {@code -o} argument that remounts it with {@link #OPTION} and every option it has now: a cgroup2
         * reconfiguration clears the superblock flags it is not given, and a classic remount the per-mount ones.
         */
        String remountOptions() {
            Set<String> options = new LinkedHashSet<>();
            options.add("remount");
            options.addAll(mountOptions);
            for (String o : superOptions) {
                if (!o.equals("rw") && !o.equals("ro")) { // the per-mount list already says which
                    options.add(o);
                }
            }
            options.add(OPTION);
            return String.join(",", options);
        }
    }

    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    private FavorDynmods() {}

    /** The first cgroup2 mount in {@code mountinfo} (the one {@link CgroupLayout#detect} uses), if any. */
    static Optional<Cgroup2Mount> cgroup2(String mountinfo) {
        return Mountinfo.parse(mountinfo).stream().filter(e -> e.fsType().equals("cgroup2")).findFirst()
                .map(e -> new Cgroup2Mount(e.mountPoint(), e.mountOptions(), e.superOptions()));
    }

    /** Whether this host's cgroup2 mount has the option now (read at each call: another process may change it). */
    public static boolean isSet() {
        return read(MOUNTINFO).flatMap(FavorDynmods::cgroup2).map(Cgroup2Mount::favorsDynmods).orElse(false);
    }

    /**
     * Sets the option on this host's cgroup2 mount unless it is there, with {@code mount -o remount,…} (through
     * {@link Spawns}, as every process the agent starts), and checks that it took. Needs CAP_SYS_ADMIN in the mount's
     * namespace (the agent as root). Blocks for the remount, at most a few seconds; call it once, at start-up.
     */
    public static Outcome ensure() {
        return ensure(MOUNTINFO, Files.isExecutable(Path.of("/usr/bin/mount")) ? "/usr/bin/mount" : "/bin/mount");
    }

    /** {@link #ensure()} with another mount table and mount program (tests). */
    static Outcome ensure(Path mountinfo, String mountProgram) {
        Optional<Cgroup2Mount> mount = read(mountinfo).flatMap(FavorDynmods::cgroup2);
        if (mount.isEmpty()) {
            return new Outcome.NoCgroup2();
        }
        Cgroup2Mount m = mount.get();
        if (m.favorsDynmods()) {
            return new Outcome.AlreadySet(m.mountPoint());
        }
        List<String> argv = new ArrayList<>(List.of(mountProgram, "-o", m.remountOptions(), m.mountPoint()));
        try {
            Process p = Spawns.start(new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))));
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Outcome.NotSet(m.mountPoint(), String.join(" ", argv) + ": no answer after 10 s");
            }
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0) {
                return new Outcome.NotSet(m.mountPoint(), String.join(" ", argv) + ": exit " + p.exitValue()
                        + (said.isEmpty() ? "" : ": " + said));
            }
        } catch (IOException e) {
            return new Outcome.NotSet(m.mountPoint(), String.join(" ", argv) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.NotSet(m.mountPoint(), "interrupted");
        }
        return read(mountinfo).flatMap(FavorDynmods::cgroup2).map(Cgroup2Mount::favorsDynmods).orElse(false)
                ? new Outcome.Set(m.mountPoint())
                : new Outcome.NotSet(m.mountPoint(), "the remount succeeded but the option is not in /proc/self/mountinfo");
    }

    private static Optional<String> read(Path mountinfo) {
        try {
            return Optional.of(Files.readString(mountinfo));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
