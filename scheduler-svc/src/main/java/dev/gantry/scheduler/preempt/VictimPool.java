package dev.gantry.scheduler.preempt;

import dev.gantry.scheduler.model.JobRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The jobs that hold resources (running or suspended, not completing), in {@link VictimOrder}. The order does not
 * depend on the preemptor: build the pool once per cycle and pass it to every preemptor's
 * {@link PreemptionPlanner#candidates(JobRecord, String, VictimPool, java.time.Instant)}. Immutable.
 */
public final class VictimPool {

    private final List<JobRecord> ordered;

    private VictimPool(List<JobRecord> ordered) {
        this.ordered = List.copyOf(ordered);
    }

    /** Sorts the jobs that hold resources among {@code jobs}; the others are left out. */
    public static VictimPool of(PreemptSettings settings, Collection<JobRecord> jobs) {
        List<VictimOrder.Key> keys = new ArrayList<>(jobs.size());
        for (JobRecord j : jobs) {
            if (j.state().holdsResources() && !j.completing()) {
                keys.add(VictimOrder.key(settings, j));
            }
        }
        keys.sort(VictimOrder.keyOrder(settings));
        List<JobRecord> ordered = new ArrayList<>(keys.size());
        for (VictimOrder.Key k : keys) {
            ordered.add(k.job());
        }
        return new VictimPool(ordered);
    }

    /** The jobs, most preemptable first. */
    public List<JobRecord> jobs() {
        return ordered;
    }
}
