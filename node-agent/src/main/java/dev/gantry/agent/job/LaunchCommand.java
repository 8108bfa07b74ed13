package dev.gantry.agent.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The command line that starts a batch script, as a chain of execs in one process (so the pid the agent gets
 * is the job's leader throughout):
 * <ol>
 *   <li>{@code sh -c JOIN}: writes its own pid to each cgroup's {@code cgroup.procs}, so that everything after
 *       runs inside the job's cgroups (left out when there are none);</li>
 *   <li>{@code setpriv --reuid --regid --init-groups}: becomes the job's user (only when the agent is root and the
 *       user is another);</li>
 *   <li>{@code taskset -c}: binds to the job's cores (CR_Core; only when the launch names cores);</li>
 *   <li>{@code setsid}: leads a new session and process group;</li>
 *   <li>{@code sh -c STEP}: opens the output files as the job's user, runs the script as its child, and writes the
 *       script's exit status ({@code $?}: the code, or 128 + the signal) to the status file before exiting with it.
 *       It catches the signals a job is sent (a handler, not an ignore, so the script still gets the default
 *       dispositions) and outlives the script, so that an agent restarted meanwhile still learns how the script
 *       ended (slurmstepd's role). A signal that reaches it before the script started is re-raised on itself
 *       with the default action, so the job ends by it as if the script had been hit (the remaining window is the
 *       few microseconds between that check and the fork).</li>
 * </ol>
 * Pure: builds strings only.
 */
public final class LaunchCommand {

    /** Where the helper programs are. */
    public record Tools(String sh, String setpriv, String taskset, String setsid) {}

    static final String JOIN = "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ >\"$1\" || exit 125; shift; n=$((n-1)); done; exec \"$@\"";

    /** Signals the status-keeping shell outlives; one that comes before the script runs is re-raised on the shell. */
    static final String CAUGHT = "HUP INT QUIT ALRM TERM USR1 USR2 PIPE";

    static final String STEP = "status=$1; out=$2; err=$3; shift 3; got=; "
            + "for s in " + CAUGHT + "; do trap \"got=$s\" $s; done; "
            + "exec >>\"$out\"; if [ -n \"$err\" ]; then exec 2>>\"$err\"; else exec 2>&1; fi; "
            + "if [ -n \"$got\" ]; then trap - $got; kill -s $got $$; fi; "
            + "\"$@\"; s=$?; echo \"$s\" >\"$status\"; exit \"$s\"";

    private LaunchCommand() {}

    /**
     * @param joinFiles the cgroup.procs files to join, in order
     * @param runAs the user to become, or empty to stay the agent's user
     * @param cpus logical CPU ids to bind to, or empty for no binding
     * @param stderr the error file, or empty when stderr goes to stdout's file
     */
    public static List<String> argv(Tools tools, List<String> joinFiles, Optional<JobUser> runAs, List<Integer> cpus,
            String statusFile, String stdout, String stderr, String script, List<String> args) {
        List<String> cmd = new ArrayList<>();
        if (!joinFiles.isEmpty()) {
            cmd.addAll(List.of(tools.sh(), "-c", JOIN, "gantry-join", Integer.toString(joinFiles.size())));
            cmd.addAll(joinFiles);
        }
        runAs.ifPresent(u -> cmd.addAll(List.of(tools.setpriv(), "--reuid=" + u.uid(), "--regid=" + u.gid(), "--init-groups")));
        if (!cpus.isEmpty()) {
            cmd.addAll(List.of(tools.taskset(), "-c", cpuList(cpus)));
        }
        cmd.add(tools.setsid());
        cmd.addAll(List.of(tools.sh(), "-c", STEP, "gantry-step", statusFile, stdout, stderr, script));
        cmd.addAll(args);
        return cmd;
    }

    /** Core ids as taskset's list ("0,2,3"), sorted and without duplicates. */
    public static String cpuList(List<Integer> cpus) {
        return cpus.stream().distinct().sorted().map(String::valueOf).collect(Collectors.joining(","));
    }
}
