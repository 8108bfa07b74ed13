/**
 * Preemption's decision core, pure (no frameworks, no wall clock): which running jobs a pending job may preempt and
 * in what order ({@link dev.gantry.scheduler.preempt.PreemptionPlanner#candidates}), and, once select-svc has chosen
 * the victims, what happens to each ({@link dev.gantry.scheduler.preempt.PreemptionPlanner#plan}). Behaviour follows
 * Slurm's https://slurm.schedmd.com/preempt.html and slurm.conf(5), plus Moab's preemption limits (minimum and maximum
 * active time, at most 32 victims per preemptor, escalation SUSPEND → REQUEUE → CANCEL).
 */
package dev.gantry.scheduler.preempt;
