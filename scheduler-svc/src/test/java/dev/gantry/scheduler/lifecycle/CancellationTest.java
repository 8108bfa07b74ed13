package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.Role;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CancellationTest {

    static final Instant NOW = T0.plusSeconds(60);
    static final Requester ALICE = new Requester("alice", 1000, Role.USER);
    static final Requester BOB = new Requester("bob", 1001, Role.USER);
    static final Requester OPERATOR = new Requester("oper", 1002, Role.OPERATOR);

    /** Alice's jobs: 1 pending, 2 running, 3 completed; the next id is 10. */
    final Map<Long, JobRecord> jobs = Map.of(
            1L, aJob(1).build(),
            2L, running(2, "n1"),
            3L, running(3, "n2").toBuilder().state(JobState.COMPLETED, T0).endTime(T0).build());

    Cancellation.Result cancel(Requester who, long... ids) {
        List<Long> list = java.util.Arrays.stream(ids).boxed().toList();
        return Cancellation.cancel(list, id -> jobs.containsKey(id) ? List.of(jobs.get(id)) : List.of(), who, 10, NOW);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        a pending job is cancelled                      | 1  | ''
        a running job is cancelled                      | 2  | ''
        a finished job answers so                       | 3  | Job/step already completing or completed
        an id below the next one names a forgotten job  | 7  | Job/step already completing or completed
        an id never given is invalid                    | 12 | Invalid job id specified
        """)
    void scancelAnswers(String rule, long id, String error) {
        assertEquals(List.of(new Cancellation.Outcome(id, error.isEmpty() ? null : error)), cancel(ALICE, id).outcomes());
    }

    @Test
    void aPendingJob_endsCancelledNow_withoutTheKillSequence() {
        Decision d = cancel(ALICE, 1).decision();
        JobRecord c = d.records().get(0);
        assertEquals(JobState.CANCELLED, c.state());
        assertEquals(NOW, c.endTime());
        assertEquals(false, c.completing());
        assertEquals(List.of(), effects(d, Effect.Terminate.class));
        assertEquals(List.of(new Effect.CountEnd(c)), effects(d, Effect.CountEnd.class));
        assertEquals(List.of(new Effect.Persist(c)), effects(d, Effect.Persist.class));
    }

    @Test
    void aRunningJob_isCancelledThroughTheKillSequence() {
        Decision d = cancel(ALICE, 2).decision();
        JobRecord c = d.records().get(0);
        assertEquals(JobState.CANCELLED, c.state());
        assertTrue(c.completing(), "it holds its nodes until its processes are gone");
        assertEquals(List.of(new Effect.Terminate(c, "cancelled")), effects(d, Effect.Terminate.class));
        assertEquals(List.of(), effects(d, Effect.CountEnd.class), "counted when it ends");
    }

    @Test
    void anotherUsersJob_isRefused_unlessTheCallerIsPrivileged_whoIsAudited() {
        Cancellation.Result refused = cancel(BOB, 1);
        assertEquals("Access/permission denied", refused.outcomes().get(0).error());
        assertEquals(List.of(), refused.decision().records());

        Cancellation.Result byOperator = cancel(OPERATOR, 1);
        assertNull(byOperator.outcomes().get(0).error());
        assertEquals(List.of(new Effect.AuditOnJob(OPERATOR, "cancelled", jobs.get(1L), NOW)),
                effects(byOperator.decision(), Effect.AuditOnJob.class));
    }

    @Test
    void everyCancel_asksForAPass_once() {
        assertEquals(1, effects(cancel(ALICE, 1, 2, 3, 12).decision(), Effect.TriggerPass.class).size());
    }
}
