package dev.gantry.agent.process;

import com.sun.jna.LastErrorException;
import dev.gantry.agent.job.Signals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cgroup per job ({@code job_<id>} in each hierarchy of the {@link CgroupLayout}), as Slurm's proctrack/cgroup
 * and task/cgroup do. The batch script's first process joins it before it execs anything, so no process of the
 * job can leave (setsid and setpgid do not move a process out of its cgroup). Suspension freezes the cgroup
 * (v2 {@code cgroup.freeze}, else the v1 freezer); SIGKILL to the whole job is v2's {@code cgroup.kill}; other
 * signals go to each process listed in {@code cgroup.procs}. Memory is limited to the job's allocation, with no
 * swap beyond it; a kernel OOM kill inside shows in {@code oom_kill} of {@code memory.oom_control} (v1) or
 * {@code memory.events} (v2).
 */
public final class CgroupContainment implements Containment {

    enum Hierarchy { UNIFIED, FREEZER, MEMORY, CPUACCT }

    private static final String PREFIX = "job_";

    private final CgroupLayout layout;
    private final Map<Hierarchy, Path> bases = new EnumMap<>(Hierarchy.class);
    private final double ticksPerSecond = ProcFs.ticksPerSecond();
    private final long pageKb = ProcFs.pageKb();

    public CgroupContainment(CgroupLayout layout) {
        this.layout = layout;
        layout.unified().ifPresent(p -> bases.put(Hierarchy.UNIFIED, p));
        layout.freezer().ifPresent(p -> bases.put(Hierarchy.FREEZER, p));
        layout.memory().ifPresent(p -> bases.put(Hierarchy.MEMORY, p));
        layout.cpuacct().ifPresent(p -> bases.put(Hierarchy.CPUACCT, p));
    }

    public CgroupLayout layout() {
        return layout;
    }

    @Override
    public String mode() {
        return layout.mode();
    }

    @Override
    public JobGroup create(long jobId, long memoryMb) throws IOException {
        Map<Hierarchy, Path> dirs = new EnumMap<>(Hierarchy.class);
        try {
            for (Map.Entry<Hierarchy, Path> e : bases.entrySet()) {
                Path dir = e.getValue().resolve(PREFIX + jobId);
                Files.deleteIfExists(dir); // an empty leftover of an earlier run; a populated one fails the launch
                Files.createDirectory(dir);
                dirs.put(e.getKey(), dir);
            }
            if (memoryMb > 0) {
                long bytes = memoryMb * 1024 * 1024;
                if (layout.unifiedMemory()) {
                    write(dirs.get(Hierarchy.UNIFIED).resolve("memory.max"), Long.toString(bytes));
                    writeIfPresent(dirs.get(Hierarchy.UNIFIED).resolve("memory.swap.max"), "0");
                } else if (dirs.containsKey(Hierarchy.MEMORY)) {
                    write(dirs.get(Hierarchy.MEMORY).resolve("memory.limit_in_bytes"), Long.toString(bytes));
                    writeIfPresent(dirs.get(Hierarchy.MEMORY).resolve("memory.memsw.limit_in_bytes"), Long.toString(bytes));
                }
            }
        } catch (IOException | RuntimeException e) {
            new CgroupGroup(dirs, layout.unifiedMemory()).release();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        return new CgroupGroup(dirs, layout.unifiedMemory());
    }

    @Override
    public JobGroup adopt(long jobId, String descriptor, long leaderPid) {
        Map<Hierarchy, Path> dirs = new EnumMap<>(Hierarchy.class);
        for (String part : descriptor.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                dirs.put(Hierarchy.valueOf(part.substring(0, eq)), Path.of(part.substring(eq + 1)));
            }
        }
        return new CgroupGroup(dirs, layout.unifiedMemory());
    }

    @Override
    public Map<JobGroup, GroupUsage> sample(Collection<JobGroup> groups) {
        Map<JobGroup, GroupUsage> out = new HashMap<>();
        for (JobGroup g : groups) {
            CgroupGroup group = (CgroupGroup) g;
            out.put(g, new GroupUsage(group.cpuSeconds(), group.rssKb()));
        }
        return out;
    }

    @Override
    public void sweep(Set<Long> keep) {
        for (Path base : bases.values()) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, PREFIX + "*")) {
                for (Path dir : dirs) {
                    String id = dir.getFileName().toString().substring(PREFIX.length());
                    if (id.matches("[0-9]+") && !keep.contains(Long.parseLong(id))) {
                        try {
                            Files.deleteIfExists(dir);
                        } catch (IOException e) {
                            // still populated (a process outlived an agent restart): left for an operator
                        }
                    }
                }
            } catch (IOException e) {
                // nothing to sweep
            }
        }
    }

    @Override
    public void removeScope() {
        sweep(Set.of());
        for (Path base : bases.values()) {
            try {
                Files.deleteIfExists(base);
            } catch (IOException e) {
                // a job cgroup is still in it
            }
        }
    }

    /** One job's cgroups, one per hierarchy. */
    final class CgroupGroup implements JobGroup {

        private final Map<Hierarchy, Path> dirs;
        private final boolean unifiedMemory;
        private final Path procsDir;

        CgroupGroup(Map<Hierarchy, Path> dirs, boolean unifiedMemory) {
            this.dirs = dirs;
            this.unifiedMemory = unifiedMemory;
            this.procsDir = dirs.values().stream().findFirst().orElse(null);
        }

        @Override
        public String id() {
            return procsDir == null ? "no cgroup" : procsDir.toString();
        }

        @Override
        public List<Path> joinFiles() {
            return dirs.values().stream().map(d -> d.resolve("cgroup.procs")).toList();
        }

        @Override
        public void started(long leaderPid) {}

        @Override
        public boolean holds(long pid) {
            return pids().contains(pid);
        }

        @Override
        public void signal(int signal) {
            Path unified = dirs.get(Hierarchy.UNIFIED);
            if (signal == Signals.SIGKILL && unified != null && Files.exists(unified.resolve("cgroup.kill"))) {
                writeQuietly(unified.resolve("cgroup.kill"), "1");
                return;
            }
            for (long pid : pids()) {
                try {
                    LibC.INSTANCE.kill((int) pid, signal);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() != LibC.ESRCH) {
                        throw new IllegalStateException("kill(" + pid + ", " + signal + ") failed: errno " + e.getErrorCode(), e);
                    }
                }
            }
        }

        @Override
        public void freeze() {
            setFrozen(true);
        }

        @Override
        public void thaw() {
            setFrozen(false);
        }

        /** cgroup v2's cgroup.freeze, else v1's freezer, else SIGSTOP/SIGCONT to every process of the group. */
        private void setFrozen(boolean frozen) {
            if (dirs.containsKey(Hierarchy.UNIFIED)) {
                writeQuietly(dirs.get(Hierarchy.UNIFIED).resolve("cgroup.freeze"), frozen ? "1" : "0");
            } else if (dirs.containsKey(Hierarchy.FREEZER)) {
                writeQuietly(dirs.get(Hierarchy.FREEZER).resolve("freezer.state"), frozen ? "FROZEN" : "THAWED");
            } else {
                signal(frozen ? Signals.SIGSTOP : Signals.SIGCONT);
            }
        }

        @Override
        public boolean isEmpty() {
            for (long pid : pids()) {
                if (ProcFs.stat(pid).filter(ProcStat::isLive).isPresent()) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean outOfMemory() {
            if (unifiedMemory) {
                return keyed(dirs.get(Hierarchy.UNIFIED).resolve("memory.events"), "oom_kill").orElse(0L) > 0;
            }
            Path memory = dirs.get(Hierarchy.MEMORY);
            return memory != null && keyed(memory.resolve("memory.oom_control"), "oom_kill").orElse(0L) > 0;
        }

        @Override
        public void release() {
            for (Path dir : dirs.values()) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // still populated or already gone; sweep retries at the next start
                }
            }
        }

        @Override
        public String descriptor() {
            List<String> parts = new ArrayList<>();
            dirs.forEach((h, d) -> parts.add(h.name() + "=" + d));
            return String.join(";", parts);
        }

        double cpuSeconds() {
            Path unified = dirs.get(Hierarchy.UNIFIED);
            if (unified != null) {
                Optional<Long> usec = keyed(unified.resolve("cpu.stat"), "usage_usec");
                if (usec.isPresent()) {
                    return usec.get() / 1e6;
                }
            }
            Path cpuacct = dirs.get(Hierarchy.CPUACCT);
            if (cpuacct != null) {
                Optional<String> ns = read(cpuacct.resolve("cpuacct.usage"));
                if (ns.isPresent()) {
                    return Long.parseLong(ns.get().trim()) / 1e9;
                }
            }
            return procSum()[0] / ticksPerSecond;
        }

        long rssKb() {
            if (unifiedMemory) {
                return keyed(dirs.get(Hierarchy.UNIFIED).resolve("memory.stat"), "anon").orElse(0L) / 1024;
            }
            Path memory = dirs.get(Hierarchy.MEMORY);
            if (memory != null) {
                Optional<Long> rss = keyed(memory.resolve("memory.stat"), "total_rss");
                if (rss.isPresent()) {
                    return rss.get() / 1024;
                }
            }
            return procSum()[1] * pageKb;
        }

        /** CPU ticks and RSS pages of the live processes, where no controller counts them. */
        private long[] procSum() {
            long[] sum = new long[2];
            for (long pid : pids()) {
                ProcFs.stat(pid).filter(ProcStat::isLive).ifPresent(p -> {
                    sum[0] += p.cpuTicksWithChildren();
                    sum[1] += p.rssPages();
                });
            }
            return sum;
        }

        private List<Long> pids() {
            if (procsDir == null) {
                return List.of();
            }
            Optional<String> procs = read(procsDir.resolve("cgroup.procs"));
            if (procs.isEmpty() || procs.get().isBlank()) {
                return List.of();
            }
            List<Long> out = new ArrayList<>();
            for (String line : procs.get().split("\n")) {
                if (!line.isBlank()) {
                    out.add(Long.parseLong(line.trim()));
                }
            }
            return out;
        }
    }

    /** The value of {@code key} in a flat-keyed file ("key value" lines), e.g. cpu.stat or memory.events. */
    static Optional<Long> keyed(Path file, String key) {
        Optional<String> text = read(file);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        for (String line : text.get().split("\n")) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2 && kv[0].equals(key)) {
                try {
                    return Optional.of(Long.parseLong(kv[1]));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }

    private static void writeIfPresent(Path file, String value) {
        if (Files.exists(file)) {
            writeQuietly(file, value);
        }
    }

    private static void writeQuietly(Path file, String value) {
        try {
            write(file, value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + value + " to " + file + ": " + e.getMessage(), e);
        }
    }
}
