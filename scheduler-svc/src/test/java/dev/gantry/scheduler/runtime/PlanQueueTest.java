package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.JobRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanQueueTest {

    private final PlanQueue queue = new PlanQueue();

    private PlanRequest fill(JobRecord... jobs) {
        return queue.fill(PlanRequest.newBuilder(), List.of(jobs)).build();
    }

    private static List<Long> sent(PlanRequest r) {
        return r.getJobsList().stream().map(ResourceRequest::getJobId).toList();
    }

    @Test
    void eachRequestIsSentOnce_andTheQueueAsIdsEveryTime() {
        JobRecord a = Fixtures.aJob(1).build();
        JobRecord b = Fixtures.aJob(2).build();

        PlanRequest first = fill(a, b);
        PlanRequest second = fill(b, a);

        assertEquals(List.of(1L, 2L), sent(first));
        assertEquals(List.of(), sent(second));
        assertEquals(List.of(2L, 1L), second.getQueueList());
        assertEquals(first.getQueueSession(), second.getQueueSession());
    }

    @Test
    void aJobWhoseRequestChanged_isSentAgain_butAReasonOrPriorityChangeIsNot() {
        JobRecord a = Fixtures.aJob(1).build();
        fill(a);

        assertEquals(List.of(), sent(fill(a.toBuilder().pendingReason(PendingReason.PRIORITY).priority(99).build())));
        assertEquals(List.of(1L), sent(fill(a.toBuilder().timeLimitSeconds(60).build())));
        assertEquals(List.of(1L), sent(fill(a.toBuilder().partitions(List.of("other")).build())));
    }

    @Test
    void aJobLeftOutOfOnePass_isSentAgainWhenItReturns() {
        JobRecord a = Fixtures.aJob(1).build();
        JobRecord b = Fixtures.aJob(2).build();
        fill(a, b);
        fill(b);

        assertEquals(List.of(1L), sent(fill(a, b)), "select-svc keeps only the previous call's queue");
    }

    @Test
    void afterForget_aNewSessionCarriesEveryRequest() {
        JobRecord a = Fixtures.aJob(1).build();
        PlanRequest before = fill(a);
        queue.forget();

        PlanRequest after = fill(a);

        assertEquals(List.of(1L), sent(after));
        assertNotEquals(before.getQueueSession(), after.getQueueSession());
    }
}
