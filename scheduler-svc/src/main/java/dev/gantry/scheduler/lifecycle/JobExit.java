package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.preempt.GraceEnd;
import java.time.Instant;
import java.util.List;

/**
 * The batch host reports that the job's batch script ended and nothing of it is left there: the exit mapping (Slurm's
 * job states, https://slurm.schedmd.com/job_state_codes.html) and the job's end, at once or once its other nodes'
 * parts are gone ({@link JobEnding#batchEnded}).
 */
public final class JobExit {

    private JobExit() {}

    /**
     * An agent's report of the end of a job's part on its node, as the domain sees it.
     *
     * @param endedAt when the processes were gone, as the agent saw it; null = unknown (now is used)
     * @param launchFailure why the launch failed, when {@code launchFailed}
     * @param outOfMemory the kernel killed a process of it at its memory limit
     */
    public record Report(String node, Instant endedAt, boolean launchFailed, String launchFailure, boolean outOfMemory,
            int exitCode, int exitSignal) {}

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
     * {@link #outcome}; a preemption victim killed because its GraceTime ran out is counted.
     *
     * @param graceSeconds the GraceTime that applies to the job (0 = none)
     * @param left the other nodes where a part of the job is still running
     */
    public static Decision batchHostReported(JobRecord j, Report r, long graceSeconds, List<String> left, Instant now) {
        Instant ended = r.endedAt() != null ? r.endedAt() : now;
        Decision d = JobEnding.batchEnded(j, outcome(j, r), ended, left, now);
        return GraceEnd.of(j, graceSeconds, ended) == GraceEnd.Outcome.KILLED
                ? d.with(new Effect.CountGraceKill(j.partition())) : d;
    }
}
