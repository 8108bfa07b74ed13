package dev.gantry.agent.process;

import dev.gantry.agent.job.JobUser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The site's Prolog and Epilog programs (slurm.conf {@code Prolog=}, {@code Epilog=}), run by the agent as its own
 * user (root on a real node) on the batch host: the prolog before the job's script starts, the epilog after every
 * process of the job is gone and before its exit is reported, each with SLURM_JOB_ID, SLURM_JOB_USER,
 * SLURM_JOB_UID, SLURM_JOB_GID, SLURM_JOB_PARTITION and SLURMD_NODENAME, as
 * <a href="https://slurm.schedmd.com/prolog_epilog.html">Slurm documents</a>. A prolog that fails (non-zero exit,
 * or still running after {@code timeout}, when it is killed) fails the launch with the reason.
 */
public record SiteScripts(Optional<Path> prolog, Optional<Path> epilog, Duration timeout) {

    public static final SiteScripts NONE = new SiteScripts(Optional.empty(), Optional.empty(), Duration.ofMinutes(5));

    /** From the configured paths; an empty string means none. */
    public static SiteScripts of(String prolog, String epilog, Duration timeout) {
        return new SiteScripts(path(prolog), path(epilog), timeout);
    }

    /** Runs the prolog; empty when it succeeded or there is none, else why the job must not start. */
    public Optional<String> runProlog(long jobId, JobUser user, String partition, String nodeName) {
        return prolog.flatMap(p -> run("prolog", p, jobId, user, partition, nodeName));
    }

    /** Runs the epilog; empty when it succeeded or there is none, else what went wrong (for the log). */
    public Optional<String> runEpilog(long jobId, JobUser user, String partition, String nodeName) {
        return epilog.flatMap(p -> run("epilog", p, jobId, user, partition, nodeName));
    }

    private Optional<String> run(String what, Path program, long jobId, JobUser user, String partition, String nodeName) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("SLURM_JOB_ID", Long.toString(jobId));
        env.put("SLURM_JOB_USER", user.name());
        env.put("SLURM_JOB_UID", Long.toString(user.uid()));
        env.put("SLURM_JOB_GID", Long.toString(user.gid()));
        env.put("SLURM_JOB_PARTITION", partition);
        env.put("SLURMD_NODENAME", nodeName);
        env.put("GANTRY_JOB_ID", Long.toString(jobId));
        ProcessBuilder builder = new ProcessBuilder(program.toString()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(env);
        try {
            Process p = Spawns.start(builder);
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return Optional.of(what + " " + program + " still running after " + timeout.toSeconds() + " s; killed");
            }
            if (p.exitValue() == 0) {
                return Optional.empty();
            }
            String first = new String(out, StandardCharsets.UTF_8).strip().lines().findFirst().orElse("");
            return Optional.of(what + " " + program + " failed with exit " + p.exitValue() + (first.isEmpty() ? "" : ": " + first));
        } catch (IOException e) {
            return Optional.of(what + " " + program + " cannot run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(what + " " + program + " interrupted");
        }
    }

    private static Optional<Path> path(String configured) {
        return configured == null || configured.isBlank() ? Optional.empty() : Optional.of(Path.of(configured.trim()));
    }
}
