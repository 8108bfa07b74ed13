package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.List;

/**
 * How a job that holds resources stops holding them: the kill sequence (COMPLETING, squeue CG), the final state once
 * nothing of it is left on any node (Slurm's epilog_complete from every node), or back in the queue with one more
 * restart. Pure: every method takes the time it happens at and returns a {@link Decision}.
 *
 * <p>Which nodes still have a part of a job is the runtime's bookkeeping; the methods that need it take the nodes
 * {@code left} (other than the one whose part just went).
 */
public final class JobEnding {

    private JobEnding() {}

    /** Seconds the job has spent suspended up to {@code at}, counting a suspension still in progress. */
    public static long suspendedUntil(JobRecord j, Instant at) {
        long s = j.suspendedSeconds();
        if (j.state() == JobState.SUSPENDED && j.lastStateChange() != null) {
            s += Math.max(0, at.getEpochSecond() - j.lastStateChange().getEpochSecond());
        }
        return s;
    }

    /**
     * A running or suspended job on its way out through the kill sequence: completing, in {@code next} (a final state,
     * or PENDING when it is requeued), its current suspension, if any, counted as suspended time.
     */
    public static JobRecord.Builder stopping(JobRecord j, JobState next, Instant now) {
        return j.toBuilder().suspendedSeconds(suspendedUntil(j, now)).state(next, now).completing(true);
    }

    /**
     * Ends a job whose processes are all gone: final state {@code end} with its {@code endNote} (empty for none),
     * resources released. The end time is {@code
     * endTime} unless the job already recorded an earlier one (a cancel records its time; a preemption with GraceTime a
     * deadline, which an earlier exit beats).
     */
    public static Decision finish(JobRecord j, JobState end, String endNote, int exitCode, int exitSignal,
            Instant endTime, Instant now) {
        JobRecord done = j.toBuilder().state(end, now).completing(false).endNote(endNote).exit(exitCode, exitSignal)
                .endTime(earlier(j.endTime(), endTime)).build();
        // other nodes' parts may still be there (a launch that failed, a node DOWN): released ends them
        return Decision.of(done, new Effect.StopCharging(j, done.endTime()), new Effect.ReleaseParts(j, "job ended"),
                new Effect.PublishRelease(j), new Effect.CountEnd(done), new Effect.Persist(done), Effect.TRIGGER_PASS);
    }

    /**
     * A requeued job (PENDING and completing while its processes were killed) whose processes are gone: its resources
     * go back and it waits in the queue again, same id, one more restart.
     */
    public static Decision backInQueue(JobRecord j, Instant now) {
        JobRecord pending = j.toBuilder().completing(false).allocation(List.of()).startTime(null).endTime(null)
                .controls(j.controls().withRestart()).build();
        return Decision.of(pending, new Effect.StopCharging(j, now), new Effect.ReleaseParts(j, "requeued"),
                new Effect.PublishRelease(j), new Effect.Persist(pending), Effect.TRIGGER_PASS);
    }

    /** Puts a running job straight back in the queue, same id, one more restart: its launch failed or its node did. */
    public static Decision requeue(JobRecord j, String why, Instant now) {
        JobRecord pending = j.toBuilder().state(JobState.PENDING, now).completing(false).allocation(List.of())
                .startTime(null).pendingReason(PendingReason.NONE).controls(j.controls().withRestart()).build();
        // whatever part of the launch reached the other nodes is ended by the release
        return Decision.of(pending, new Effect.StopCharging(j, now), new Effect.ReleaseParts(j, "requeued"),
                new Effect.PublishRelease(j), new Effect.Persist(pending),
                new Effect.Note(true, "job " + j.id() + " requeued: " + why), Effect.TRIGGER_PASS);
    }

    /**
     * The batch host's part ended with this outcome ({@code end} PENDING for a requeued job): released when no other
     * node has a part {@code left}, else in its final state and completing, with the other parts ended.
     */
    public static Decision batchEnded(JobRecord j, JobExit.Outcome o, Instant ended, List<String> left, Instant now) {
        if (left.isEmpty()) {
            return o.end() == JobState.PENDING ? backInQueue(j, now)
                    : finish(j, o.end(), o.endNote(), o.exitCode(), o.exitSignal(), ended, now);
        }
        JobRecord ending = o.end() == JobState.PENDING ? j
                : (j.completing() ? j.toBuilder().state(o.end(), now) : stopping(j, o.end(), now))
                        .endNote(o.endNote()).exit(o.exitCode(), o.exitSignal()).endTime(earlier(j.endTime(), ended))
                        .build();
        return Decision.of(ending,
                new Effect.EndParts(ending, left, o.end() == JobState.PENDING ? "requeued" : "job ended"),
                new Effect.Note(false, "job " + j.id() + " ended on " + j.batchHost() + " (" + o.end()
                        + "); completing until its part on " + left + " is gone"),
                new Effect.Persist(ending));
    }

    /**
     * The last node with a part of a completing job has shown nothing of it is left: the job is released, back in the
     * queue when it was requeued, else in the final state the kill sequence recorded.
     */
    public static Decision lastPartGone(JobRecord j, String node, Instant now) {
        Decision released = j.state() == JobState.PENDING ? backInQueue(j, now)
                : finish(j, j.state(), j.endNote(), j.exitCode(), j.exitSignal(), j.endTime() != null ? j.endTime() : now,
                        now);
        return released.with(new Effect.Note(false, "job " + j.id() + ": nothing of it is left on any node (the last was "
                + node + "); releasing its resources"));
    }

    /**
     * A node of the running job went DOWN (its part there counts as gone): the job ends NODE_FAIL, or goes back to the
     * queue when {@code requeue}; at once when no other node has a part {@code left}, else once the others, ended now,
     * have shown theirs gone.
     */
    public static Decision nodeDown(JobRecord j, boolean requeue, String why, List<String> left, Instant now) {
        if (left.isEmpty()) {
            return requeue ? requeue(j, why, now) : finish(j, JobState.NODE_FAIL, "NodeDown", 0, 0, now, now);
        }
        JobRecord ending = requeue
                ? stopping(j, JobState.PENDING, now).pendingReason(PendingReason.NONE).build()
                : stopping(j, JobState.NODE_FAIL, now).endNote("NodeDown").exit(0, 0).endTime(now).build();
        return Decision.of(ending, new Effect.EndParts(ending, left, why),
                new Effect.Note(true, "job " + j.id() + ": " + why + "; " + (requeue ? "requeued" : "NODE_FAIL")
                        + " once its part on " + left + " is gone"),
                new Effect.Persist(ending));
    }

    private static Instant earlier(Instant recorded, Instant t) {
        return recorded != null && recorded.isBefore(t) ? recorded : t;
    }
}
