package dev.gantry.cli.cluster;

import dev.gantry.common.job.JobCgroupScope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Job processes a local cluster left behind: whatever is still in its agents' job cgroups (the scope directories
 * named by {@link JobCgroupScope} after each agent's node and spool, so only this cluster's, never another's or
 * anything else on the host) after {@code gantry down} stopped the agents, or when {@code gantry up} starts again on
 * the run directory of a cluster that was not brought down (killed agents, a reboot of the user session). A job
 * process cannot leave its cgroup (setsid, nohup and double forks stay in it), which is why this works where process
 * groups do not. Killing: cgroup v2's {@code cgroup.kill} where the kernel has it (5.14+), else the scope is frozen
 * (v2 {@code cgroup.freeze}, v1 {@code freezer.state}) so nothing forks meanwhile, every process SIGKILLed and the
 * scope thawed; then the empty job cgroups are removed. Agents in process-group containment (ProctrackType=
 * proctrack/pgid) make no cgroup: what escaped their sessions is not found here.
 */
final class LeftoverJobProcesses {

    private LeftoverJobProcesses() {
    }

    /** What was found and killed. */
    record Sweep(List<Path> scopes, Set<Long> killed) {}

    /**
     * Kills every process in the job cgroups of the agents of {@code nodes} whose spool root is {@code spoolRoot}, waits
     * up to {@code wait} for them to be gone, and removes the emptied cgroups.
     */
    static Sweep sweep(List<String> nodes, Path spoolRoot, Duration wait) throws InterruptedException {
        Set<String> names = new LinkedHashSet<>();
        for (String n : nodes) {
            names.add(JobCgroupScope.name(n, spoolRoot.resolve(n)));
        }
        List<Path> scopes = new ArrayList<>();
        for (Path mount : hierarchies()) {
            try (Stream<Path> dirs = Files.walk(mount, 6)) {
                dirs.filter(d -> names.contains(String.valueOf(d.getFileName())) && Files.isDirectory(d)).forEach(scopes::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                // a cgroup removed while walking, or one this user may not read: nothing of ours there
            }
        }
        Set<Long> killed = new LinkedHashSet<>();
        for (Path scope : scopes) {
            killed.addAll(kill(scope));
        }
        Instant until = Instant.now().plus(wait);
        while (killed.stream().anyMatch(LocalCluster::alive) && Instant.now().isBefore(until)) {
            Thread.sleep(50);
        }
        scopes.forEach(LeftoverJobProcesses::removeEmpty);
        return new Sweep(scopes, killed);
    }

    /** The cgroup v2 mount and the v1 freezer's, from /proc/self/mountinfo. */
    private static List<Path> hierarchies() {
        List<Path> mounts = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
                String[] halves = line.split(" - ", 2);
                if (halves.length < 2) {
                    continue;
                }
                String[] fields = halves[0].split(" ");
                String[] rest = halves[1].split(" ");
                if (fields.length < 5 || rest.length < 3) {
                    continue;
                }
                boolean v2 = rest[0].equals("cgroup2");
                boolean freezer = rest[0].equals("cgroup") && List.of(rest[2].split(",")).contains("freezer");
                if (v2 || freezer) {
                    mounts.add(Path.of(fields[4].replace("\\040", " ")));
                }
            }
        } catch (IOException e) {
            // no /proc: no cgroups either
        }
        return mounts;
    }

    /** SIGKILLs every process of {@code scope} and below; returns their pids. */
    private static Set<Long> kill(Path scope) {
        Set<Long> pids = processes(scope);
        if (pids.isEmpty()) {
            return pids;
        }
        Path v2kill = scope.resolve("cgroup.kill");
        if (Files.exists(v2kill) && write(v2kill, "1")) {
            return pids;
        }
        Path v2freeze = scope.resolve("cgroup.freeze");
        Path v1freeze = scope.resolve("freezer.state");
        boolean v2 = Files.exists(v2freeze);
        write(v2 ? v2freeze : v1freeze, v2 ? "1" : "FROZEN"); // nothing forks while the processes are read and killed
        Set<Long> all = processes(scope);
        for (long pid : all) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        write(v2 ? v2freeze : v1freeze, v2 ? "0" : "THAWED"); // a killed process that is frozen does not die
        pids.addAll(all);
        return pids;
    }

    /** Every pid in {@code scope}'s cgroup.procs and its descendants'. */
    private static Set<Long> processes(Path scope) {
        Set<Long> pids = new LinkedHashSet<>();
        try (Stream<Path> procs = Files.walk(scope)) {
            for (Path f : procs.filter(p -> p.getFileName().toString().equals("cgroup.procs")).toList()) {
                try {
                    for (String l : Files.readAllLines(f)) {
                        if (!l.isBlank()) {
                            pids.add(Long.parseLong(l.trim()));
                        }
                    }
                } catch (IOException | NumberFormatException e) {
                    // the cgroup went away meanwhile
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // the scope went away meanwhile
        }
        return pids;
    }

    private static boolean write(Path file, String value) {
        try {
            Files.writeString(file, value);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Removes the scope's empty cgroups, the deepest first (a cgroup directory is removed with rmdir only). */
    private static void removeEmpty(Path scope) {
        try (Stream<Path> dirs = Files.walk(scope)) {
            for (Path d : dirs.filter(Files::isDirectory).sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList()) {
                try {
                    Files.delete(d);
                } catch (IOException e) {
                    // not empty (a process that would not die) or gone: left as is
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // gone
        }
    }
}
