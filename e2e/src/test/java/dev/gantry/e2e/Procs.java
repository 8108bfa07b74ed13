package dev.gantry.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads /proc to find processes by their environment: a job's (SLURM_JOB_ID=id), a service's, a test's marked ones. */
final class Procs {
    private Procs() {}

    /**
     * The processes of a job of {@code cluster}: SLURM_JOB_ID=id and the cluster's GANTRY_RUN_DIR, which its commands
     * run with and its jobs inherit (sbatch's --export=ALL). SLURM_JOB_ID alone is not enough: clusters started by
     * tests running at the same time, on this machine, number their jobs from 1 too.
     */
    static List<Long> ofJob(TestCluster cluster, long jobId) throws IOException {
        return withEnvironment(jobNeedle(jobId), scope(cluster));
    }

    /** The processes of one step of a job of {@code cluster} (srun's tasks and what they started), as {@link #ofJob}. */
    static List<Long> ofStep(TestCluster cluster, long jobId, String stepId) throws IOException {
        return withEnvironment(jobNeedle(jobId), scope(cluster), ("SLURM_STEP_ID=" + stepId + "\0").getBytes());
    }

    private static byte[] jobNeedle(long jobId) {
        return ("SLURM_JOB_ID=" + jobId + "\0").getBytes();
    }

    private static byte[] scope(TestCluster cluster) {
        return ("GANTRY_RUN_DIR=" + cluster.runDir + "\0").getBytes();
    }

    /**
     * The live processes (not zombies) whose environment holds {@code variable} exactly (NAME=VALUE): a marker a test
     * put into its jobs' environment, the certificate a service runs with.
     */
    static List<Long> withVariable(String variable) throws IOException {
        List<Long> live = new ArrayList<>();
        for (long pid : withEnvironment((variable + "\0").getBytes())) {
            try {
                if (!statFields(pid)[0].equals("Z")) {
                    live.add(pid);
                }
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        return live;
    }

    /** The environment of process {@code pid}; empty when it is gone. */
    static java.util.Map<String, String> environment(long pid) {
        java.util.Map<String, String> out = new java.util.HashMap<>();
        try {
            for (String kv : new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"))).split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        } catch (IOException gone) {
            // exited meanwhile
        }
        return out;
    }

    /** The processes whose environment holds every one of {@code needles} (each NAME=VALUE\0). */
    private static List<Long> withEnvironment(byte[]... needles) throws IOException {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
            for (Path d : dirs.toList()) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    byte[] env = Files.readAllBytes(d.resolve("environ"));
                    if (java.util.Arrays.stream(needles).allMatch(n -> contains(env, n))) {
                        pids.add(Long.parseLong(name));
                    }
                } catch (IOException | SecurityException gone) {
                    // exited meanwhile, or not ours to read
                }
            }
        }
        return pids;
    }

    /** utime + stime of the job's processes, in clock ticks (fields 14 and 15 of /proc/PID/stat). */
    static long cpuTicks(TestCluster cluster, long jobId) throws IOException {
        return cpuTicks(ofJob(cluster, jobId));
    }

    /** utime + stime of {@code pids} together, in clock ticks. */
    static long cpuTicks(List<Long> pids) {
        long total = 0;
        for (long pid : pids) {
            try {
                String[] f = statFields(pid);
                total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        return total;
    }

    /**
     * Whether the job has processes and every one is stopped: state T (SIGSTOP), or in a frozen cgroup (v2
     * {@code cgroup.events} "frozen 1", or the v1 freezer FROZEN) — how node-agent suspends a job.
     */
    static boolean allStopped(TestCluster cluster, long jobId) throws IOException {
        return allStopped(ofJob(cluster, jobId));
    }

    /** Whether {@code pids} is not empty and every one of them is stopped (as {@link #allStopped(TestCluster, long)}). */
    static boolean allStopped(List<Long> pids) throws IOException {
        if (pids.isEmpty()) {
            return false;
        }
        for (long pid : pids) {
            try {
                String state = statFields(pid)[0];
                if (!state.equals("T") && !state.equals("t") && !frozenCgroup(pid)) {
                    return false;
                }
            } catch (IOException gone) {
                return false;
            }
        }
        return true;
    }

    /** Fields after the command name of /proc/PID/stat: [0] is the state (field 3). */
    private static String[] statFields(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static boolean frozenCgroup(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] p = line.split(":", 3);
            if (p.length < 3) {
                continue;
            }
            if (p[1].isEmpty()) { // the unified (v2) hierarchy
                for (String root : List.of("/sys/fs/cgroup/unified", "/sys/fs/cgroup")) {
                    Path events = Path.of(root + p[2], "cgroup.events");
                    if (Files.exists(events) && Files.readAllLines(events).contains("frozen 1")) {
                        return true;
                    }
                }
            } else if (p[1].equals("freezer")) {
                Path state = Path.of("/sys/fs/cgroup/freezer" + p[2], "freezer.state");
                if (Files.exists(state) && Files.readString(state).trim().equals("FROZEN")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (i > 0 && hay[i - 1] != 0) {
                continue; // match only at the start of a variable
            }
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
