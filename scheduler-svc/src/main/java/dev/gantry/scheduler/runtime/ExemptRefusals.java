package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.preempt.CandidateList;
import dev.gantry.scheduler.preempt.Verdict.Protection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Counts exempt refusals for {@code gantry_preemption_exempt_total}: a running job a pending preemptor could have
 * preempted but for PreemptExemptTime, PreemptMinActiveTime or PreemptMaxActiveTime. Every preemption pass sees the same
 * refusals again, so each (preemptor, job, rule) is counted once, while the preemptor waits. Controller thread only.
 */
final class ExemptRefusals {

    private final Map<Long, Set<String>> counted = new HashMap<>();

    /** The metric's rule label for a time exemption; null for the other protections (not counted here). */
    static String rule(Protection p) {
        return switch (p) {
            case EXEMPT_TIME -> "preempt_exempt_time";
            case MIN_ACTIVE_TIME -> "preempt_min_active_time";
            case MAX_ACTIVE_TIME -> "preempt_max_active_time";
            default -> null;
        };
    }

    /** Counts the candidate list's time exemptions not counted before for its preemptor. */
    void note(CandidateList candidates, SchedulerMetrics metrics) {
        for (CandidateList.Kept k : candidates.kept()) {
            String rule = rule(k.verdict().kind());
            if (rule != null && counted.computeIfAbsent(candidates.preemptorId(), id -> new HashSet<>())
                    .add(k.jobId() + ":" + rule)) {
                metrics.exemptRefusal(rule);
            }
        }
    }

    /** Forgets preemptors that no longer wait ({@code waiting} false): started, cancelled or gone. */
    void forgetUnless(LongPredicate waiting) {
        counted.keySet().removeIf(id -> !waiting.test(id));
    }
}
