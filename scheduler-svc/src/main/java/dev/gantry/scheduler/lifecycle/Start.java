package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A pending job starts on a checked placement: RUNNING from now, in the partition and on the shares placed, charged
 * usage from now; or SUSPENDED at once when gang scheduling must give it its turn first (Slurm's gs_job_start: a new
 * job that does not fit the active row is suspended before it runs; its processes are stopped before their first
 * instruction).
 */
public final class Start {

    private Start() {}

    /** How a pass starts a job. */
    public record Placement(String partition, List<NodeShare> shares, boolean byBackfill, boolean backfillPreemptable) {

        /** A main-pass start. */
        public static Placement of(String partition, List<NodeShare> shares) {
            return new Placement(partition, shares, false, false);
        }
    }

    /**
     * @param startsSuspended whether the running job must start suspended (asked of the runtime's gang view)
     * @param freezeFirst running jobs whose processes must stop before the launch reaches the agents (a SUSPEND
     *     preemption's victims); they are recorded SUSPENDED by their own decisions
     */
    public static Decision start(JobRecord job, Placement p, Predicate<JobRecord> startsSuspended,
            List<JobRecord> freezeFirst, Instant now) {
        JobRecord running = job.toBuilder().state(JobState.RUNNING, now).partition(p.partition()).allocation(p.shares())
                .startTime(now).backfillPreemptable(p.backfillPreemptable())
                .startedByBackfill(p.byBackfill()).build();
        if (startsSuspended.test(running)) {
            running = running.toBuilder().state(JobState.SUSPENDED, now).build();
        }
        List<Effect> effects = new ArrayList<>();
        effects.add(new Effect.TrackParts(running));
        if (running.state() == JobState.RUNNING) {
            effects.add(new Effect.StartCharging(running, now));
        }
        effects.add(new Effect.PublishAllocation(running));
        freezeFirst.forEach(v -> effects.add(new Effect.Freeze(v)));
        effects.add(new Effect.Launch(running));
        effects.add(new Effect.Persist(running));
        effects.add(new Effect.CountStart(running));
        return new Decision(List.of(running), effects);
    }
}
