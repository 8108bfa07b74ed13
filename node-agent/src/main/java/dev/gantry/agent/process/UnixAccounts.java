package dev.gantry.agent.process;

import dev.gantry.agent.job.JobUser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The users tasks run as. When the agent runs as root, a job runs as its credential's uid and gid (Slurm's
 * slurmstepd does the same); otherwise every job runs as the agent's own user.
 */
public final class UnixAccounts {

    private final boolean root;
    private final String setpriv;
    private final String sh;

    public UnixAccounts(String sh, String setpriv) {
        this(LibC.INSTANCE.geteuid() == 0, sh, setpriv);
    }

    UnixAccounts(boolean root, String sh, String setpriv) {
        this.root = root;
        this.sh = sh;
        this.setpriv = setpriv;
    }

    /** Whether the agent runs as root and can therefore run tasks as their submitters. */
    public boolean switchesUsers() {
        return root;
    }

    /** The user to become for a job, or empty when it runs as the agent's own user. */
    public Optional<JobUser> runAs(JobUser user) {
        return root && user.uid() != 0 ? Optional.of(user) : Optional.empty();
    }

    /** Whether the node knows {@code uid} (getpwuid: /etc/passwd or whatever NSS serves). */
    public static boolean exists(long uid) {
        return LibC.INSTANCE.getpwuid((int) uid) != null;
    }

    /**
     * As {@code user}: checks the working directory can be entered and creates (truncating) the output files, so
     * that they belong to the user and a path the user may not write fails the launch. Empty when all is well,
     * else why not, e.g. "cannot create /data/x.out: Permission denied".
     */
    public Optional<String> prepareFilesAs(JobUser user, Path workDir, Path stdout, Optional<Path> stderr) {
        List<String> cmd = new ArrayList<>(List.of(setpriv, "--reuid=" + user.uid(), "--regid=" + user.gid(), "--init-groups",
                sh, "-c", "cd \"$1\" || exit 1; : >\"$2\" || exit 1; [ -z \"$3\" ] || : >\"$3\" || exit 1",
                "gantry-check", workDir.toString(), stdout.toString(), stderr.map(Path::toString).orElse("")));
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        try {
            Process p = Spawns.start(builder);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int code = p.waitFor();
            if (code == 0) {
                return Optional.empty();
            }
            String why = out.replaceAll("(?m)^gantry-check: [0-9]+: ", "").replace("\n", "; ");
            return Optional.of(why.isEmpty() ? "cannot prepare the job's files as " + user.name() + " (exit " + code + ")" : why);
        } catch (IOException e) {
            return Optional.of("cannot run " + setpriv + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while preparing the job's files");
        }
    }
}
