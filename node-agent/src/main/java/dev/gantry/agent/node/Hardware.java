package dev.gantry.agent.node;

import java.util.HashSet;
import java.util.Set;

/**
 * What the node offers, as RegisterNode reports it and slurm.conf's NodeName line describes it
 * (CPUs, Sockets, CoresPerSocket, ThreadsPerCore, RealMemory in MiB). Detected from /proc or emulated.
 */
public record Hardware(int cpus, int sockets, int coresPerSocket, int threadsPerCore, long memoryMb) {

    public Hardware {
        if (cpus < 1 || sockets < 1 || coresPerSocket < 1 || threadsPerCore < 1 || memoryMb < 1) {
            throw new IllegalArgumentException("hardware values must be positive: " + describe(cpus, sockets, coresPerSocket, threadsPerCore, memoryMb));
        }
    }

    /**
     * Reads the text of /proc/cpuinfo and /proc/meminfo (x86 and arm64 layouts): CPUs are the "processor"
     * entries, sockets the distinct "physical id"s (1 when absent), cores per socket "cpu cores" (else CPUs per
     * socket), threads per core what is left; memory is MemTotal.
     *
     * @throws IllegalArgumentException when either text has none of what is needed
     */
    public static Hardware detect(String cpuinfo, String meminfo) {
        int cpus = 0;
        int coresPerSocket = 0;
        Set<String> physicalIds = new HashSet<>();
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            switch (key) {
                case "processor" -> cpus++;
                case "physical id" -> physicalIds.add(value);
                case "cpu cores" -> coresPerSocket = parsePositive(value, coresPerSocket);
                default -> { }
            }
        }
        if (cpus == 0) {
            throw new IllegalArgumentException("/proc/cpuinfo lists no processor");
        }
        int sockets = Math.max(physicalIds.size(), 1);
        if (coresPerSocket == 0 || coresPerSocket * sockets > cpus) {
            coresPerSocket = Math.max(cpus / sockets, 1);
        }
        int threads = Math.max(cpus / (sockets * coresPerSocket), 1);
        return new Hardware(cpus, sockets, coresPerSocket, threads, memTotalMb(meminfo));
    }

    /**
     * This hardware with the emulated values that are set. CPUs alone give one socket of single-threaded cores;
     * with any topology value set, unset sockets and threads are 1, unset cores fill the CPUs, and unset CPUs
     * are sockets × cores × threads (as slurm.conf computes them).
     */
    public Hardware emulate(Emulation emulation) {
        long mem = emulation.memoryMb() != null ? emulation.memoryMb() : memoryMb;
        boolean topologySet = emulation.sockets() != null || emulation.coresPerSocket() != null || emulation.threadsPerCore() != null;
        if (!topologySet && emulation.cpus() == null) {
            return new Hardware(cpus, sockets, coresPerSocket, threadsPerCore, mem);
        }
        if (!topologySet) {
            return new Hardware(emulation.cpus(), 1, emulation.cpus(), 1, mem);
        }
        int s = or(emulation.sockets(), 1);
        int t = or(emulation.threadsPerCore(), 1);
        int c = or(emulation.coresPerSocket(), emulation.cpus() != null ? Math.max(emulation.cpus() / (s * t), 1) : 1);
        return new Hardware(or(emulation.cpus(), s * c * t), s, c, t, mem);
    }

    /** As a slurm.conf NodeName line has it: {@code CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=8000}. */
    public String describe() {
        return describe(cpus, sockets, coresPerSocket, threadsPerCore, memoryMb);
    }

    /** GANTRY_NODE_CPUS, _SOCKETS, _CORES_PER_SOCKET, _THREADS_PER_CORE, _MEMORY_MB; null = not emulated. */
    public record Emulation(Integer cpus, Integer sockets, Integer coresPerSocket, Integer threadsPerCore, Long memoryMb) {
        public static final Emulation NONE = new Emulation(null, null, null, null, null);
    }

    private static long memTotalMb(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                long kib = Long.parseLong(parts[0]);
                return Math.max(kib / 1024, 1);
            }
        }
        throw new IllegalArgumentException("/proc/meminfo has no MemTotal");
    }

    private static int parsePositive(String value, int fallback) {
        try {
            int v = Integer.parseInt(value);
            return v > 0 ? v : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static int or(Integer value, int fallback) {
        return value != null ? value : fallback;
    }

    private static String describe(int cpus, int sockets, int cores, int threads, long mem) {
        return "CPUs=" + cpus + " Sockets=" + sockets + " CoresPerSocket=" + cores + " ThreadsPerCore=" + threads + " RealMemory=" + mem;
    }
}
