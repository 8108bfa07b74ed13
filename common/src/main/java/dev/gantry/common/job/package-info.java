/**
 * What scheduler-svc and select-svc must name alike about a job: {@link dev.gantry.common.job.PendingReason}, Slurm's
 * pending reasons by the names squeue and scontrol show (https://slurm.schedmd.com/job_reason_codes.html). Pure: no
 * framework, no clock.
 */
package dev.gantry.common.job;
