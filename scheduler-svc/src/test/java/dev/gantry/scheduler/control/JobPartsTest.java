package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobPartsTest {

    private final JobParts parts = new JobParts();

    @Test
    void aJobsLastNodeIsTheOneWhoseGoingLeavesNothing_inAnyOrder_eachNodeCountedOnce() {
        parts.started(7, List.of("n1", "n2", "n3"));
        assertFalse(parts.gone(7, "n2"));
        assertFalse(parts.gone(7, "n2"), "idempotent");
        assertFalse(parts.gone(7, "n9"), "not a node of the job");
        assertEquals(List.of("n1", "n3"), parts.left(7));
        assertFalse(parts.gone(7, "n1"));
        assertTrue(parts.gone(7, "n3"));
        assertEquals(List.of(), parts.left(7));
        assertFalse(parts.gone(7, "n3"), "nothing is left to go");
    }

    @Test
    void aRestartedJobTracksAllItsNodesAgain_andAForgottenOneNone() {
        parts.started(7, List.of("n1", "n2"));
        parts.gone(7, "n1");
        parts.started(7, List.of("n3", "n4"));
        assertTrue(parts.on(7, "n3"));
        assertFalse(parts.on(7, "n2"));
        parts.forget(7);
        assertFalse(parts.on(7, "n3"));
        assertFalse(parts.gone(7, "n3"));
    }
}
