package dev.gantry.scheduler.model;

import dev.gantry.common.job.PendingReason;
import java.time.Instant;
import java.util.List;

/**
 * A job as the controller holds it. Immutable: state changes produce a new record via {@link #toBuilder()}.
 *
 * @param request what the user submitted, passed through to the node agent (script, environment, paths), with the
 *     request as scontrol update last changed it (partitions, node counts, QOS, account)
 * @param partitions the partitions it may run in, in the user's order
 * @param partition the partition it runs in (or the first candidate while pending)
 * @param timeLimitSeconds effective limit, -1 = UNLIMITED
 * @param completing processes are still being killed or reported (squeue CG)
 * @param pendingReason why it does not start now (squeue's REASON while pending). Always NONE outside PENDING (the
 *     constructor sets it): a job that leaves the queue has no pending reason.
 * @param endNote why it ended, in words, shown as its Reason= once it is not pending: "NonZeroExitCode",
 *     "TimeLimit", "launch failed: …", "Preempted by job 12", …; also, from its suspension on, a SUSPEND preemption
 *     victim's "Preempted by job 12". Empty for none (shown as None). Always empty while PENDING (the constructor
 *     clears it): a requeued job waits with a pending reason, not its last run's note.
 * @param allocation held resources, batch host first; empty unless it ran
 * @param controls account, QOS, hold, dependencies, array membership, requeue
 * @param forecast while pending: where and when backfill expects it to start; null = unknown
 * @param suspendedSeconds time spent suspended, up to the last resume (or the suspension in progress is not counted)
 * @param adminSuspended SUSPENDED by scontrol suspend (an operator): its CPUs are released, only memory and GRES stay
 *     held, and gang-svc does not resume it. Always false outside SUSPENDED (the constructor clears it).
 * @param preemptTime when it was last picked as a preemption victim (scontrol PreemptTime); null = never
 * @param backfillPreemptable this run was started by backfill over a held reservation under BackfillPolicy=PREEMPT
 *     (Moab's PREEMPT backfill policy), so a job holding a reservation may preempt it. Durable with the job. Always
 *     false outside RUNNING and SUSPENDED (the constructor clears it): a requeue or the end of the run drops it, and a
 *     later start is an ordinary run.
 * @param startedByBackfill this run was started by the backfill pass, not the main pass (Slurm's BACKFILL_SCHED flag of
 *     a started job: scontrol Scheduler=Backfill). Durable with the job. Always false while PENDING (the constructor
 *     clears it): a requeued job is pending again, and its next start says again which pass started it.
 */
public record JobRecord(
        long id,
        JobRequest request,
        String name,
        String user,
        int uid,
        int gid,
        List<String> partitions,
        ResourceAsk ask,
        long timeLimitSeconds,
        JobState state,
        boolean completing,
        PendingReason pendingReason,
        String endNote,
        String partition,
        List<NodeShare> allocation,
        Instant submitTime,
        Instant startTime,
        Instant endTime,
        Instant lastStateChange,
        int exitCode,
        int exitSignal,
        long priority,
        JobControls controls,
        Forecast forecast,
        long suspendedSeconds,
        boolean adminSuspended,
        Instant preemptTime,
        boolean backfillPreemptable,
        boolean startedByBackfill) {

    public JobRecord {
        partitions = List.copyOf(partitions);
        allocation = List.copyOf(allocation);
        controls = controls == null ? JobControls.NONE : controls;
        pendingReason = state == JobState.PENDING && pendingReason != null ? pendingReason : PendingReason.NONE;
        endNote = state == JobState.PENDING || endNote == null ? "" : endNote;
        adminSuspended = adminSuspended && state == JobState.SUSPENDED;
        backfillPreemptable = backfillPreemptable && (state == JobState.RUNNING || state == JobState.SUSPENDED);
        startedByBackfill = startedByBackfill && state != JobState.PENDING;
    }

    /** A job with no end note, never suspended by an operator nor picked as a victim. */
    public JobRecord(long id, JobRequest request, String name, String user, int uid, int gid, List<String> partitions,
            ResourceAsk ask, long timeLimitSeconds, JobState state, boolean completing, PendingReason pendingReason,
            String partition, List<NodeShare> allocation, Instant submitTime, Instant startTime, Instant endTime,
            Instant lastStateChange, int exitCode, int exitSignal, long priority, JobControls controls, Forecast forecast,
            long suspendedSeconds) {
        this(id, request, name, user, uid, gid, partitions, ask, timeLimitSeconds, state, completing, pendingReason, "",
                partition, allocation, submitTime, startTime, endTime, lastStateChange, exitCode, exitSignal, priority,
                controls, forecast, suspendedSeconds, false, null, false, false);
    }

    /**
     * Slurm's Reason= as squeue, scontrol and the API show it (and the store keeps it): the end note when there is one,
     * else the pending reason's name ("None" when neither).
     */
    public String reason() {
        return endNote.isEmpty() ? pendingReason.slurmName() : endNote;
    }

    /**
     * Seconds it has run (Slurm's job_time_used: squeue TIME, scontrol RunTime), time suspended excluded: 0 while
     * pending or never started; up to {@code now} while running; up to the suspension in progress while suspended; up
     * to its end once it ended.
     */
    public long runSeconds(Instant now) {
        if (state == JobState.PENDING || startTime == null) {
            return 0;
        }
        Instant until;
        if (endTime != null) {
            until = endTime;
        } else if (state == JobState.SUSPENDED && lastStateChange != null) {
            until = lastStateChange; // its suspension in progress began then; suspendedSeconds counts the earlier ones
        } else {
            until = now;
        }
        return Math.max(0, until.getEpochSecond() - startTime.getEpochSecond() - suspendedSeconds);
    }

    /** The node that runs the batch script, or null. */
    public String batchHost() {
        return allocation.isEmpty() ? null : allocation.get(0).node();
    }

    public List<String> nodeNames() {
        return allocation.stream().map(NodeShare::node).toList();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Copies a record with some fields changed. */
    public static final class Builder {
        private final JobRecord r;
        private JobRequest request;
        private JobState state;
        private boolean completing;
        private PendingReason pendingReason;
        private String endNote;
        private String partition;
        private List<NodeShare> allocation;
        private Instant startTime;
        private Instant endTime;
        private Instant lastStateChange;
        private int exitCode;
        private int exitSignal;
        private long priority;
        private List<String> partitions;
        private ResourceAsk ask;
        private long timeLimitSeconds;
        private JobControls controls;
        private Forecast forecast;
        private long suspendedSeconds;
        private boolean adminSuspended;
        private Instant preemptTime;
        private boolean backfillPreemptable;
        private boolean startedByBackfill;

        private Builder(JobRecord r) {
            startedByBackfill = r.startedByBackfill;
            backfillPreemptable = r.backfillPreemptable;
            adminSuspended = r.adminSuspended;
            preemptTime = r.preemptTime;
            partitions = r.partitions;
            ask = r.ask;
            timeLimitSeconds = r.timeLimitSeconds;
            controls = r.controls;
            forecast = r.forecast;
            suspendedSeconds = r.suspendedSeconds;
            this.r = r;
            request = r.request;
            state = r.state;
            completing = r.completing;
            pendingReason = r.pendingReason;
            endNote = r.endNote;
            partition = r.partition;
            allocation = r.allocation;
            startTime = r.startTime;
            endTime = r.endTime;
            lastStateChange = r.lastStateChange;
            exitCode = r.exitCode;
            exitSignal = r.exitSignal;
            priority = r.priority;
        }

        /** Sets the state and, when it differs, the time of the change. */
        public Builder state(JobState s, Instant at) {
            if (s != state) {
                lastStateChange = at;
            }
            state = s;
            return this;
        }

        public Builder request(JobRequest v) { request = v; return this; }
        public Builder completing(boolean v) { completing = v; return this; }
        public Builder pendingReason(PendingReason v) { pendingReason = v; return this; }
        public Builder endNote(String v) { endNote = v; return this; }


        public Builder partition(String v) { partition = v; return this; }
        public Builder allocation(List<NodeShare> v) { allocation = v; return this; }
        public Builder startTime(Instant v) { startTime = v; return this; }
        public Builder endTime(Instant v) { endTime = v; return this; }
        public Builder exit(int code, int signal) { exitCode = code; exitSignal = signal; return this; }
        public Builder priority(long v) { priority = v; return this; }
        public Builder partitions(List<String> v) { partitions = v; return this; }
        public Builder ask(ResourceAsk v) { ask = v; return this; }
        public Builder timeLimitSeconds(long v) { timeLimitSeconds = v; return this; }
        public Builder controls(JobControls v) { controls = v; return this; }
        public Builder forecast(Forecast v) { forecast = v; return this; }
        public Builder suspendedSeconds(long v) { suspendedSeconds = v; return this; }
        public Builder adminSuspended(boolean v) { adminSuspended = v; return this; }
        public Builder preemptTime(Instant v) { preemptTime = v; return this; }
        public Builder backfillPreemptable(boolean v) { backfillPreemptable = v; return this; }
        public Builder startedByBackfill(boolean v) { startedByBackfill = v; return this; }

        public JobRecord build() {
            return new JobRecord(r.id, request, r.name, r.user, r.uid, r.gid, partitions, ask, timeLimitSeconds,
                    state, completing, pendingReason, endNote, partition, allocation, r.submitTime, startTime, endTime,
                    lastStateChange, exitCode, exitSignal, priority, controls, forecast, suspendedSeconds, adminSuspended,
                    preemptTime, backfillPreemptable, startedByBackfill);
        }
    }
}
