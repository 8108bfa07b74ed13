package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Jobs entering the controller's state: an accepted submission once it is committed (a submission is durable before it
 * is acknowledged, so it is not persisted again here), and the jobs a restarted controller loads.
 */
public final class Admission {

    private Admission() {}

    /** Submitted jobs (one, or every task of an array), committed: queued, counted, and a pass asked for. */
    public static Decision submitted(List<JobRecord> jobs) {
        List<Effect> effects = new ArrayList<>();
        jobs.forEach(j -> effects.add(new Effect.CountSubmit(j)));
        effects.add(Effect.TRIGGER_PASS);
        return new Decision(jobs, effects);
    }

    /**
     * The jobs loaded at start: a job holding resources may have a part on each of its nodes (each node shows what is
     * left as it registers) and is charged usage again, up to the stored usage snapshot already counted, from its
     * start when it started after the snapshot.
     *
     * @param usageAsOf when the stored usage was taken; null when there is none
     */
    public static Decision loaded(List<JobRecord> jobs, Instant usageAsOf) {
        List<Effect> effects = new ArrayList<>();
        for (JobRecord j : jobs) {
            if (ClusterState.holds(j)) {
                effects.add(new Effect.TrackParts(j));
            }
        }
        for (JobRecord j : jobs) {
            if (j.state().holdsResources() && j.startTime() != null) {
                Instant from = usageAsOf == null || j.startTime().isAfter(usageAsOf) ? j.startTime() : usageAsOf;
                effects.add(new Effect.StartCharging(j, from));
            }
        }
        return new Decision(jobs, effects);
    }
}
