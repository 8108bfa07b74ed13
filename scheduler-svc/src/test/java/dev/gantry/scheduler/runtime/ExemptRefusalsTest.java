package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.preempt.CandidateList;
import dev.gantry.scheduler.preempt.Verdict;
import dev.gantry.scheduler.preempt.Verdict.Protection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** gantry_preemption_exempt_total: each time exemption counted once per waiting preemptor and kept job. */
class ExemptRefusalsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SchedulerMetrics metrics = new SchedulerMetrics(registry);
    private final ExemptRefusals refusals = new ExemptRefusals();

    private static CandidateList.Kept kept(long job, Protection p) {
        return new CandidateList.Kept(job, new Verdict.Protected(p, "kept", null));
    }

    private static CandidateList list(long preemptor, CandidateList.Kept... kept) {
        return new CandidateList(preemptor, List.of(), List.of(kept), 1, false);
    }

    private double count(String rule) {
        var c = registry.find("gantry_preemption_exempt_total").tag("rule", rule).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void eachRefusal_countsOncePerPreemptor_andOnlyTimeExemptions() {
        CandidateList pass = list(1, kept(10, Protection.EXEMPT_TIME), kept(11, Protection.MIN_ACTIVE_TIME),
                kept(12, Protection.EXCLUSIVE_USER), kept(13, Protection.MAX_ACTIVE_TIME));

        refusals.note(pass, metrics);
        refusals.note(pass, metrics); // the next pass sees the same refusals
        refusals.note(list(2, kept(10, Protection.EXEMPT_TIME)), metrics); // another preemptor

        assertEquals(2, count("preempt_exempt_time"));
        assertEquals(1, count("preempt_min_active_time"));
        assertEquals(1, count("preempt_max_active_time"));
        assertEquals(0, registry.find("gantry_preemption_exempt_total").counters().stream()
                .filter(c -> !List.of("preempt_exempt_time", "preempt_min_active_time", "preempt_max_active_time")
                        .contains(c.getId().getTag("rule"))).count());
    }

    @Test
    void aPreemptorThatStoppedWaiting_isForgotten_andCountedAfreshIfItWaitsAgain() {
        refusals.note(list(1, kept(10, Protection.EXEMPT_TIME)), metrics);
        refusals.forgetUnless(id -> false);
        refusals.note(list(1, kept(10, Protection.EXEMPT_TIME)), metrics);
        assertEquals(2, count("preempt_exempt_time"));
    }
}
