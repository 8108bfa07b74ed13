package dev.gantry.gang.slice;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects one step's decisions while applying them to gang-svc's own view of the jobs. */
final class SliceLog {

    private final Map<String, List<Long>> suspend = new LinkedHashMap<>();
    private final Map<String, List<Long>> resume = new LinkedHashMap<>();
    private final List<SuspendedTime> suspensions = new ArrayList<>();
    private final List<String> rotated = new ArrayList<>();

    void suspend(PartitionRotation partition, GangJob job, Instant now) {
        job.running = false;
        job.filler = false;
        job.suspendedSince = now;
        touch(partition.name);
        suspend.get(partition.name).add(job.id);
    }

    /** @param filler resumed between rotations (it keeps its place at the next one), not by a rotation */
    void resume(PartitionRotation partition, GangJob job, Instant now, boolean filler) {
        job.running = true;
        job.filler = filler;
        ended(partition.name, job, now);
        touch(partition.name);
        resume.get(partition.name).add(job.id);
    }

    /** A job gang-svc had suspended stops being so (resumed, ended, or resumed by someone else). */
    void ended(String partition, GangJob job, Instant now) {
        if (job.suspendedSince != null) {
            Duration held = Duration.between(job.suspendedSince, now);
            suspensions.add(new SuspendedTime(partition, held.isNegative() ? Duration.ZERO : held));
            job.suspendedSince = null;
        }
    }

    void rotated(String partition) {
        rotated.add(partition);
    }

    SliceOutcome outcome() {
        List<PartitionDecision> decisions = new ArrayList<>();
        suspend.forEach((partition, ids) -> {
            if (!ids.isEmpty() || !resume.get(partition).isEmpty()) {
                decisions.add(new PartitionDecision(partition, ids, resume.get(partition)));
            }
        });
        return new SliceOutcome(decisions, suspensions, rotated);
    }

    private void touch(String partition) {
        suspend.computeIfAbsent(partition, p -> new ArrayList<>());
        resume.computeIfAbsent(partition, p -> new ArrayList<>());
    }
}
