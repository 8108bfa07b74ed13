package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepRegistryTest {

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    private final StepRegistry registry = new StepRegistry();

    @Test
    void eachJobNumbersItsStepsFromZero_inCreationOrder() {
        assertEquals("7.0", add(7).id());
        assertEquals("7.1", add(7).id());
        assertEquals("8.0", add(8).id());
        assertEquals(List.of("7.0", "7.1"), registry.of(7).stream().map(StepRegistry.Step::id).toList());
    }

    @Test
    void aCompletedStepLeaves_butItsIdIsNotReused() {
        add(7);
        assertTrue(registry.complete(7, 0));
        assertFalse(registry.complete(7, 0), "idempotent");
        assertEquals(List.of(), registry.of(7));
        assertEquals("7.1", add(7).id());
    }

    @Test
    void theStepsOfAJobThatStoppedRunningAreForgotten_andARerunNumbersFromZero() {
        add(7);
        add(8);
        registry.retainRunning(id -> id == 8);
        assertEquals(List.of(), registry.of(7));
        assertEquals(1, registry.of(8).size());
        assertEquals("7.0", add(7).id());
    }

    private StepRegistry.Step add(long job) {
        return registry.add(job, "hostname", List.of("n1"), 1, List.of("hostname"), T0);
    }
}
