package dev.gantry.scheduler.queue;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Slurm's queue order: PriorityTier, then priority, then submit time, then job id. */
class QueueOrderTest {

    @Test
    void tierFirst_thenPriority_thenSubmitTime_thenId() {
        JobRecord lowTierHighPrio = aJob(1).priority(900).submitted(T0).partitions("debug").build();
        JobRecord highTier = aJob(2).priority(1).submitted(T0).partitions("big").build();
        JobRecord early = aJob(4).priority(500).submitted(T0).build();
        JobRecord late = aJob(3).priority(500).submitted(T0.plusSeconds(1)).build();
        JobRecord sameAsEarlyButLaterId = aJob(5).priority(500).submitted(T0).build();
        List<JobRecord> jobs = new ArrayList<>(List.of(late, sameAsEarlyButLaterId, lowTierHighPrio, early, highTier));
        QueueOrder.sort(jobs, j -> j.partition().equals("big") ? 5 : 0);
        assertEquals(List.of(2L, 1L, 4L, 5L, 3L), jobs.stream().map(JobRecord::id).toList());
    }

    @Test
    void theKeyedSort_isTheComparatorsOrder_onRandomQueues() {
        SplittableRandom r = new SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            List<JobRecord> jobs = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                jobs.add(aJob(1 + r.nextInt(1000)).priority(r.nextInt(5)).submitted(T0.plusMillis(r.nextInt(3) * 500L))
                        .partitions(r.nextBoolean() ? "big" : "debug").build());
            }
            List<JobRecord> expected = new ArrayList<>(jobs);
            expected.sort(QueueOrder.of(j -> j.partition().equals("big") ? 5 : 0));
            QueueOrder.sort(jobs, j -> j.partition().equals("big") ? 5 : 0);
            assertEquals(expected.stream().map(JobRecord::id).toList(), jobs.stream().map(JobRecord::id).toList());
        }
    }
}
