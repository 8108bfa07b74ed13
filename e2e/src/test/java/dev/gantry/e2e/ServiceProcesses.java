package dev.gantry.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A local cluster's service processes as they are now (a supervisor may have restarted one since {@code gantry up}):
 * each is found in /proc by the certificate its environment names, which is its own; the embedded database by the
 * {@code postmaster.pid} of the run directory's data directory. And signals to them.
 */
final class ServiceProcesses {

    private final Path runDir;

    ServiceProcesses(Path runDir) {
        this.runDir = runDir;
    }

    /** The certificate {@code service} ("scheduler", "select", "gang", "agent-n1") runs with. */
    private Path certificate(String service) {
        Path tls = runDir.resolve("state/tls");
        return service.startsWith("agent-") ? tls.resolve("nodes/" + service.substring(6) + ".crt")
                : tls.resolve("services/" + service + "-svc.crt");
    }

    /**
     * The live processes of {@code service} (one, unless a standby runs beside it). A child the service is spawning
     * (a job, a helper) is the service's copy, same command line and environment, until it execs: it is left out.
     */
    List<Long> pids(String service) throws IOException {
        List<Long> found = new ArrayList<>();
        for (long pid : Procs.withVariable("GANTRY_TLS_CERT=" + certificate(service))) {
            try {
                if (isJava(Path.of("/proc", Long.toString(pid)))) {
                    found.add(pid);
                }
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        List<Long> out = new ArrayList<>();
        for (long pid : found) {
            Optional<Long> parent = ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid);
            if (parent.isEmpty() || !found.contains(parent.get())) {
                out.add(pid);
            }
        }
        return out;
    }

    private static boolean isJava(Path proc) throws IOException {
        String cmd = Files.readString(proc.resolve("cmdline"));
        int end = cmd.indexOf('\0');
        return (end < 0 ? cmd : cmd.substring(0, end)).endsWith("/java");
    }

    /** The one live process of {@code service}; fails when there is none or several. */
    long pid(String service) throws IOException {
        List<Long> pids = pids(service);
        if (pids.size() != 1) {
            throw new IllegalStateException(service + ": expected one process, found " + pids);
        }
        return pids.get(0);
    }

    /** The embedded database's postmaster, if it runs. */
    Optional<Long> database() throws IOException {
        Path pidFile = runDir.resolve("state/pgdata/postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty() || lines.get(0).isBlank()) {
            return Optional.empty();
        }
        long pid = Long.parseLong(lines.get(0).trim());
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)).map(p -> pid);
    }

    static void signal(long pid, String signal) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + ": " + out);
        }
    }
}
