package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.preempt.GraceEnd;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The batch host reports that the job's batch script ended and nothing of it is left there: the exit mapping (Slurm's
 * job states, https://slurm.schedmd.com/job_state_codes.html) and the job's end, at once or once its other nodes'
 * parts are gone ({@link JobEnding#batchEnded}).
 *
 * <p>A job can run several times (requeue, preemption REQUEUE, node failure); its run is its restart count. A report
 * names the run it is about and only the job's current run may end it: a report of an earlier run (late: its agent
 * re-sends until acknowledged) or of a later one (forged) is acknowledged without effect ({@link #otherRun}), as
 * slurmctld drops an epilog_complete or step-complete message whose job no longer matches.
 */
public final class JobExit {

    private JobExit() {}

    /**
     * An agent's report of the end of a job's part on its node, as the domain sees it.
     *
     * @param endedAt when the processes were gone, as the agent saw it; null = unknown (now is used)
     * @param launchFailure why the launch failed, when {@code launchFailed}
     * @param outOfMemory the kernel killed a process of it at its memory limit
     * @param run the run that ended (the job's restart count at its launch); {@link #UNNAMED_RUN} when the agent did not
     *     name it (an older agent), taken as the current run
     */
    public record Report(String node, Instant endedAt, boolean launchFailed, String launchFailure, boolean outOfMemory,
            int exitCode, int exitSignal, int run) {

        /** A report that does not name its run (an older agent's). */
        public Report(String node, Instant endedAt, boolean launchFailed, String launchFailure, boolean outOfMemory,
                int exitCode, int exitSignal) {
            this(node, endedAt, launchFailed, launchFailure, outOfMemory, exitCode, exitSignal, UNNAMED_RUN);
        }
    }

    /** The run of a report (exit or usage) whose sender did not name one: an older agent's, taken as the current run. */
    public static final int UNNAMED_RUN = -1;

    /** What a report about a run is: an exit report or a heartbeat's usage (the label of the stale-run metric). */
    public enum ReportKind { EXIT, USAGE }

    /** Whether a report naming {@code run} is about the job's current run (its restart count); an unnamed run is. */
    public static boolean ofCurrentRun(JobRecord j, int run) {
        return run == UNNAMED_RUN || run == j.controls().restartCount();
    }

    /**
     * A report about another run of the job than its current one, earlier or later: nothing changes; it is counted and
     * logged once. The caller acknowledges it, so the agent stops re-sending it.
     */
    public static Decision otherRun(JobRecord j, ReportKind kind, String node, int run) {
        return new Decision(List.of(), List.of(new Effect.CountStaleRun(kind),
                new Effect.Note(true, "job " + j.id() + ": ignoring " + kind.name().toLowerCase(Locale.ROOT)
                        + " report from " + node + " for run " + run + "; its current run is "
                        + j.controls().restartCount())));
    }

    /**
     * A job's end as its exit decides it: final state (PENDING for a requeued job), end note
     * ({@link JobRecord#endNote}; empty for none), exit code and signal.
     */
    public record Outcome(JobState end, String endNote, int exitCode, int exitSignal) {}

    /**
     * The state a batch host's report ends the job in, in this order: a requeued job (PENDING, completing) waits
     * again; a job the kill sequence ended (CANCELLED, TIMEOUT, PREEMPTED…) keeps that state; a failed launch is
     * FAILED with exit code 1; a process killed at its memory limit OUT_OF_MEMORY; a non-zero exit code or a signal
     * FAILED (NonZeroExitCode); else COMPLETED.
     */
    public static Outcome outcome(JobRecord j, Report r) {
        if (j.completing() && j.state() == JobState.PENDING) {
            return new Outcome(JobState.PENDING, "", 0, 0);
        }
        int code = r.launchFailed() ? 1 : r.exitCode();
        if (j.completing() && j.state().isFinished()) {
            return new Outcome(j.state(), j.endNote(), code, r.exitSignal());
        }
        if (r.launchFailed()) {
            return new Outcome(JobState.FAILED, "launch failed: " + r.launchFailure(), code, r.exitSignal());
        }
        if (r.outOfMemory()) {
            return new Outcome(JobState.OUT_OF_MEMORY, "OutOfMemory", code, r.exitSignal());
        }
        if (r.exitCode() != 0 || r.exitSignal() != 0) {
            return new Outcome(JobState.FAILED, "NonZeroExitCode", code, r.exitSignal());
        }
        return new Outcome(JobState.COMPLETED, "", code, r.exitSignal());
    }

    /**
     * The batch host's report of a job that holds resources and still awaits it: the job ends (or waits again) with
     * {@link #outcome}; a preemption victim killed because its GraceTime ran out is counted. A report of another run
     * ends nothing ({@link #otherRun}).
     *
     * @param graceSeconds the GraceTime that applies to the job (0 = none)
     * @param left the other nodes where a part of the job is still running
     */
    public static Decision batchHostReported(JobRecord j, Report r, long graceSeconds, List<String> left, Instant now) {
        if (!ofCurrentRun(j, r.run())) {
            return otherRun(j, ReportKind.EXIT, r.node(), r.run());
        }
        Instant ended = r.endedAt() != null ? r.endedAt() : now;
        Decision d = JobEnding.batchEnded(j, outcome(j, r), ended, left, now);
        return GraceEnd.of(j, graceSeconds, ended) == GraceEnd.Outcome.KILLED
                ? d.with(new Effect.CountGraceKill(j.partition())) : d;
    }
}
