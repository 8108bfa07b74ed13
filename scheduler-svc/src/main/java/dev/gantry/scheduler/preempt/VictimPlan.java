package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptAction;

/**
 * What to do to one victim.
 *
 * @param configured the mode its partition, QOS or the cluster sets
 * @param mode the mode to apply, after escalation
 * @param graceSeconds CANCEL and REQUEUE: at selection send SIGCONT and SIGTERM and set its end time to now plus this;
 *     the kill follows then (0 = at once). Always 0 for SUSPEND.
 * @param timeSliced SUSPEND under preempt/qos in the preemptor's partition: gang-svc time-slices the two
 *     <p>SUSPEND of a job already suspended means: keep it suspended until the preemptor ends.
 */
public record VictimPlan(long jobId, PreemptAction configured, PreemptAction mode, long graceSeconds,
        boolean timeSliced) {}
