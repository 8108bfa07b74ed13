package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
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
        return registry.add(job, "hostname", List.of("n1"), 1, List.of("hostname"), T0, 0);
    }

    @Test
    void restoredSteps_areListedAgain_andNumberingGoesOnPastTheStoredNextIdAndEveryStoredStep() {
        StepRegistry.Step s72 = new StepRegistry.Step(7, 2, "sleep", List.of("n1"), 1, List.of("sleep", "60"), T0);
        StepRegistry.Step s90 = new StepRegistry.Step(9, 0, "sleep", List.of("n1"), 1, List.of("sleep", "60"), T0);
        // job 7 stored its numbering (steps 0..4 given, 3 and 4 ended); job 9's numbering was not stored with its step
        registry.restore(List.of(s72, s90), Map.of(7L, 5));
        assertEquals(List.of(s72), registry.of(7));
        assertEquals(5, registry.nextStepId(7));
        assertEquals("7.5", add(7).id());
        assertEquals("9.1", add(9).id());
        assertEquals(0, registry.nextStepId(8));
    }

    @Test
    void retainRunning_namesTheJobsItForgot() {
        add(7);
        add(8);
        registry.complete(8, 0);
        assertEquals(List.of(8L), registry.retainRunning(id -> id == 7), "also a job whose steps all ended");
        assertEquals(List.of(), registry.retainRunning(id -> id == 7));
    }
}
