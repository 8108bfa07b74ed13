package dev.gantry.agent.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The command line that starts a batch script, as a chain of execs in one process (so the pid the agent gets
 * is the job's leader throughout):
 * <ol>
 *   <li>{@code setpriv --reuid --regid --init-groups}: becomes the job's user (only when the agent is root and the
 *       user is another);</li>
 *   <li>{@code setsid}: leads a new session and process group (left out when the agent's spawn does it,
 *       posix_spawn's {@code POSIX_SPAWN_SETSID});</li>
 *   <li>{@code sh -c STEP}: waits until the agent says {@code go} on its stdin, a pipe. Meanwhile the agent moves
 *       the process into the job's cgroups and binds it to the job's cores (sched_setaffinity, CR_Core) from the
 *       outside, so nothing of the job runs before it is contained and bound, without a shell and a
 *       {@code taskset} of its own in the chain. Without {@code go} (the pipe closed: the agent failed to contain
 *       it, or died) it exits 125 without running anything. Then it opens the output files as the job's user, runs
 *       the script as its child with stdin from /dev/null, and writes the script's exit status ({@code $?}: the
 *       code, or 128 + the signal) to the status file before exiting with it. It catches the signals a job is sent
 *       (a handler, not an ignore, so the script still gets the default dispositions) and outlives the script, so
 *       that an agent restarted meanwhile still learns how the script ended (slurmstepd's role). A signal that
 *       reaches it before the script started is re-raised on itself with the default action, so the job ends by it
 *       as if the script had been hit (the remaining window is the few microseconds between that check and the
 *       fork).</li>
 * </ol>
 * Pure: builds strings only.
 */
public final class LaunchCommand {

    /** Where the helper programs are. */
    public record Tools(String sh, String setpriv, String taskset, String setsid) {}

    /** A shell that writes its pid to each cgroup.procs file given, then execs the rest (job steps; see StepCommand). */
    static final String JOIN = "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ >\"$1\" || exit 125; shift; n=$((n-1)); done; exec \"$@\"";

    /** Signals the status-keeping shell outlives; one that comes before the script runs is re-raised on the shell. */
    static final String CAUGHT = "HUP INT QUIT ALRM TERM USR1 USR2 PIPE";

    /** What the agent writes to the status-keeping shell's stdin once the process is contained and bound. */
    public static final String GO = "go\n";

    static final String STEP = "status=$1; out=$2; err=$3; shift 3; got=; "
            + "for s in " + CAUGHT + "; do trap \"got=$s\" $s; done; "
            + "IFS= read -r go; [ \"$go\" = go ] || [ -n \"$got\" ] || exit 125; exec </dev/null; "
            + "exec >>\"$out\"; if [ -n \"$err\" ]; then exec 2>>\"$err\"; else exec 2>&1; fi; "
            + "if [ -n \"$got\" ]; then trap - $got; kill -s $got $$; fi; "
            + "\"$@\"; s=$?; echo \"$s\" >\"$status\"; exit \"$s\"";

    private LaunchCommand() {}

    /**
     * @param runAs the user to become, or empty to stay the agent's user
     * @param stderr the error file, or empty when stderr goes to stdout's file
     */
    public static List<String> argv(Tools tools, Optional<JobUser> runAs, String statusFile, String stdout, String stderr,
            String script, List<String> args) {
        return argv(tools, runAs, statusFile, stdout, stderr, script, args, true);
    }

    /** @param setsid whether the chain starts its own session ({@code false}: the spawn already did) */
    public static List<String> argv(Tools tools, Optional<JobUser> runAs, String statusFile, String stdout, String stderr,
            String script, List<String> args, boolean setsid) {
        List<String> cmd = new ArrayList<>();
        runAs.ifPresent(u -> cmd.addAll(List.of(tools.setpriv(), "--reuid=" + u.uid(), "--regid=" + u.gid(), "--init-groups")));
        if (setsid) {
            cmd.add(tools.setsid());
        }
        cmd.addAll(List.of(tools.sh(), "-c", STEP, "gantry-step", statusFile, stdout, stderr, script));
        cmd.addAll(args);
        return cmd;
    }

    /** Core ids as taskset's list ("0,2,3"), sorted and without duplicates. */
    public static String cpuList(List<Integer> cpus) {
        return cpus.stream().distinct().sorted().map(String::valueOf).collect(Collectors.joining(","));
    }
}
