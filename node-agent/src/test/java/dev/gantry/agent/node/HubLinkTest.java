package dev.gantry.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.node.HubLink.Action;
import dev.gantry.agent.node.HubLink.Step;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HubLinkTest {

    private final HubLink link = new HubLink(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), Duration.ofSeconds(30));

    @Test
    void start_registersAtOnce() {
        assertEquals(new Step(Action.REGISTER, Duration.ZERO, Optional.empty()), link.start());
    }

    @Test
    void registered_heartbeatsAtTheControllersInterval_orTheDefault() {
        assertEquals(new Step(Action.HEARTBEAT, Duration.ofSeconds(5), Optional.empty()).action(), link.registered("e1", 5).action());
        assertEquals(Duration.ofSeconds(5), link.heartbeatAnswered("e1").after());
        assertEquals(Duration.ofSeconds(30), link.registered("e1", 0).after());
    }

    @Test
    void unreachableController_isRetriedWithBackoff_andReportedOnce() {
        Step first = link.registerFailed("UNAVAILABLE");
        Step second = link.registerFailed("UNAVAILABLE");
        Step third = link.registerFailed("UNAVAILABLE");
        Step fifth = link.registerFailed("UNAVAILABLE");
        fifth = link.registerFailed("UNAVAILABLE");

        assertEquals(Action.REGISTER, first.action());
        assertEquals(Duration.ofSeconds(1), first.after());
        assertEquals(Duration.ofSeconds(2), second.after());
        assertEquals(Duration.ofSeconds(4), third.after());
        assertEquals(Duration.ofSeconds(8), fifth.after());
        assertTrue(first.news().isPresent());
        assertEquals(Optional.empty(), second.news());
        assertEquals(Optional.empty(), third.news());
    }

    @Test
    void recovering_isReportedOnce_andResetsTheBackoff() {
        link.registerFailed("UNAVAILABLE");
        link.registerFailed("UNAVAILABLE");

        Step back = link.registered("e1", 5);
        Step beat = link.heartbeatAnswered("e1");

        assertTrue(back.news().orElseThrow().contains("registered"));
        assertEquals(Optional.empty(), beat.news());
        link.heartbeatFailed("UNAVAILABLE");
        assertEquals(Duration.ofSeconds(1), link.registerFailed("UNAVAILABLE").after());
    }

    @Test
    void epochChange_registersAgainAtOnce() {
        link.registered("e1", 5);

        Step step = link.heartbeatAnswered("e2");

        assertEquals(Action.REGISTER, step.action());
        assertEquals(Duration.ZERO, step.after());
        assertTrue(step.news().orElseThrow().contains("e2"));
        assertEquals(Optional.empty(), link.epoch());
        link.registered("e2", 5);
        assertEquals(Optional.of("e2"), link.epoch());
    }

    @Test
    void aHeartbeatAnsweredWithNoEpoch_registersAgainAtOnce_sayingTheControllerAskedForIt() {
        link.registered("e1", 5);

        Step step = link.heartbeatAnswered(""); // the controller set this node DOWN while it was frozen or cut off

        assertEquals(Action.REGISTER, step.action());
        assertEquals(Duration.ZERO, step.after());
        assertTrue(step.news().orElseThrow().contains("asks this node to register again"), step.news().orElseThrow());
        assertEquals(Optional.empty(), link.epoch());
        link.registered("e1", 5);
        assertEquals(Optional.of("e1"), link.epoch(), "the same controller takes it back");
    }

    @Test
    void onceRegistered_retriesNoLessOftenThanTheHeartbeatInterval() {
        link.registered("e1", 2); // SlurmdTimeout 6: the controller judges silence over three intervals
        link.heartbeatFailed("DEADLINE_EXCEEDED"); // the controller is stopped

        Step first = link.registerFailed("DEADLINE_EXCEEDED");
        Step second = link.registerFailed("DEADLINE_EXCEEDED");
        Step tenth = second;
        for (int i = 0; i < 8; i++) {
            tenth = link.registerFailed("DEADLINE_EXCEEDED");
        }

        assertEquals(Duration.ofSeconds(1), first.after());
        assertEquals(Duration.ofSeconds(2), second.after());
        assertEquals(Duration.ofSeconds(2), tenth.after(), "capped at the interval, not the backoff's 8 s");
    }

    @Test
    void failedHeartbeat_registersAgainAtOnce_reportingTheLossOnce() {
        link.registered("e1", 5);

        Step step = link.heartbeatFailed("DEADLINE_EXCEEDED");
        Step retry = link.registerFailed("UNAVAILABLE");

        assertEquals(new Step(Action.REGISTER, Duration.ZERO, step.news()), step);
        assertTrue(step.news().isPresent());
        assertEquals(Optional.empty(), retry.news(), "already reported as lost");
    }
}
