package dev.gantry.agent.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this agent may create job cgroups: below its own cgroup in each hierarchy it can write, in a directory
 * named by {@link #scopeName} (so several agents on one host, as on the local cluster, keep apart, and the jobs
 * stay inside whatever limits the agent itself runs under). The unified (v2) hierarchy gives freezing
 * ({@code cgroup.freeze}), killing ({@code cgroup.kill}) and CPU time ({@code cpu.stat}); its memory controller
 * gives limits when enabled there. Otherwise the v1 memory controller limits memory (hybrid hosts: v2 has no
 * memory controller but v1 has), and on v1-only hosts the v1 freezer and cpuacct controllers take the rest.
 *
 * @param unified the v2 directory job cgroups are created in, when v2 is mounted and writable
 * @param unifiedMemory whether the v2 memory controller is enabled for job cgroups
 */
public record CgroupLayout(
        Optional<Path> unified,
        boolean unifiedMemory,
        Optional<Path> freezer,
        Optional<Path> memory,
        Optional<Path> cpuacct) {

    /**
     * The directory name of one agent's job cgroups: {@code gantry_<node>_<8 hex digits of its spool directory>},
     * stable across restarts of that agent (re-adoption finds its cgroups again) and distinct between agents that
     * share a node name on one host (several local clusters, tests).
     */
    public static String scopeName(String nodeName, Path spoolDir) {
        return dev.gantry.common.job.JobCgroupScope.name(nodeName, spoolDir); // gantry down and up find it by this name too
    }

    /** The containment mode this layout gives (the metric label). */
    public String mode() {
        if (unified.isPresent()) {
            return unifiedMemory || memory.isEmpty() ? "cgroup_v2" : "cgroup_hybrid";
        }
        return "cgroup_v1";
    }

    /** Whether a job's memory can be limited. */
    public boolean limitsMemory() {
        return unifiedMemory || memory.isPresent();
    }

    /** One line for the start-up log. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        unified.ifPresent(p -> parts.add("v2 " + p + (unifiedMemory ? " (memory)" : "")));
        freezer.ifPresent(p -> parts.add("v1 freezer " + p));
        memory.ifPresent(p -> parts.add("v1 memory " + p));
        cpuacct.ifPresent(p -> parts.add("v1 cpuacct " + p));
        return mode() + ": " + String.join(", ", parts) + (limitsMemory() ? "" : "; no memory controller, memory is not limited");
    }

    /**
     * Finds the hierarchies from /proc/self/mountinfo and /proc/self/cgroup and creates this node's directory in
     * each writable one. Empty when no usable cgroup is writable (freezing needs v2 or the v1 freezer); {@code notes}
     * collects why hierarchies were left out, for the log.
     */
    public static Optional<CgroupLayout> detect(String scopeName, List<String> notes) {
        String mountinfo;
        String ownCgroups;
        try {
            mountinfo = Files.readString(Path.of("/proc/self/mountinfo"));
            ownCgroups = Files.readString(Path.of("/proc/self/cgroup"));
        } catch (IOException e) {
            notes.add("cannot read /proc/self: " + e.getMessage());
            return Optional.empty();
        }
        Map<String, String> own = new HashMap<>(); // "" for v2, else a v1 controller name -> own path
        for (String line : ownCgroups.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3) {
                if (f[0].equals("0") && f[1].isEmpty()) {
                    own.put("", f[2]);
                } else {
                    for (String c : f[1].split(",")) {
                        own.put(c, f[2]);
                    }
                }
            }
        }
        String dirName = scopeName;
        Optional<Path> unified = Optional.empty();
        boolean unifiedMemory = false;
        Map<String, Path> v1 = new HashMap<>();
        for (Mountinfo.Entry entry : Mountinfo.parse(mountinfo)) {
            String root = entry.root();
            Path mount = Path.of(entry.mountPoint());
            if (entry.fsType().equals("cgroup2") && own.containsKey("") && unified.isEmpty()) {
                Optional<Path> dir = usable(mount, root, own.get(""), dirName, true, notes);
                if (dir.isPresent()) {
                    unified = dir;
                    unifiedMemory = enableMemory(dir.get());
                }
            } else if (entry.fsType().equals("cgroup")) {
                for (String option : entry.superOptions()) {
                    if ((option.equals("memory") || option.equals("freezer") || option.equals("cpuacct"))
                            && own.containsKey(option) && !v1.containsKey(option)) {
                        usable(mount, root, own.get(option), dirName, false, notes).ifPresent(d -> v1.put(option, d));
                    }
                }
            }
        }
        if (unified.isEmpty() && !v1.containsKey("freezer")) {
            notes.add("neither cgroup v2 nor the v1 freezer is writable");
            return Optional.empty();
        }
        boolean v2 = unified.isPresent();
        return Optional.of(new CgroupLayout(unified, unifiedMemory,
                v2 ? Optional.empty() : Optional.ofNullable(v1.get("freezer")),
                unifiedMemory ? Optional.empty() : Optional.ofNullable(v1.get("memory")),
                v2 ? Optional.empty() : Optional.ofNullable(v1.get("cpuacct"))));
    }

    /** This node's directory under the agent's own cgroup of one hierarchy, when a job cgroup can be made in it. */
    private static Optional<Path> usable(Path mount, String mountRoot, String ownPath, String dirName, boolean v2, List<String> notes) {
        String relative = ownPath;
        if (!mountRoot.equals("/") && relative.startsWith(mountRoot)) {
            relative = relative.substring(mountRoot.length());
        }
        Path dir = mount.resolve(relative.replaceFirst("^/+", "")).resolve(dirName);
        Path probe = dir.resolve("probe_" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir);
            Files.createDirectory(probe);
            try {
                if (v2 && !Files.exists(probe.resolve("cgroup.freeze"))) {
                    notes.add(dir + ": cgroup v2 without cgroup.freeze");
                    return Optional.empty();
                }
                return Files.isWritable(probe.resolve("cgroup.procs")) ? Optional.of(dir) : Optional.empty();
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | RuntimeException e) {
            notes.add(dir + ": not writable (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    /** Enables the v2 memory controller for the job cgroups below {@code dir} when its parent offers it. */
    private static boolean enableMemory(Path dir) {
        try {
            if (!List.of(Files.readString(dir.resolve("cgroup.controllers")).trim().split(" ")).contains("memory")) {
                return false;
            }
            Files.writeString(dir.resolve("cgroup.subtree_control"), "+memory");
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
