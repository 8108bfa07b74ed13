package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptMode;
import java.util.Set;

/**
 * What preemption reads from a QOS.
 *
 * @param priority the QOS priority: under preempt/qos, victims of lower-priority QOS are taken first
 * @param preempts the QOS (Preempt=) whose jobs this QOS's jobs may preempt
 * @param mode its PreemptMode, null = the cluster's (Slurm stores OFF as CLUSTER: a QOS PreemptMode of OFF also means
 *     the cluster's)
 * @param graceSeconds GraceTime for its jobs when preempted by CANCEL or REQUEUE (preempt/qos)
 * @param exemptSeconds its PreemptExemptTime; -1 = not set (the global one applies)
 */
public record QosRule(String name, int priority, Set<String> preempts, PreemptMode mode, long graceSeconds,
        long exemptSeconds) {

    public QosRule {
        preempts = Set.copyOf(preempts);
    }

    /** A QOS the config does not name: priority 0, preempts nothing, cluster mode, no grace, global exempt time. */
    static QosRule unknown(String name) {
        return new QosRule(name, 0, Set.of(), null, 0, -1);
    }
}
