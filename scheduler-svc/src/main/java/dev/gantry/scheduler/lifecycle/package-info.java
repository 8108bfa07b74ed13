/**
 * A job's lifecycle as decisions: each transition (exit report, time limit, cancel, requeue, …) is a pure function of
 * the job's current record, the transition's input and the time it happens at, returning a {@link
 * dev.gantry.scheduler.lifecycle.Decision}: the jobs' new records plus the {@link dev.gantry.scheduler.lifecycle.Effect}s
 * to carry out (persist, publish, charge usage, terminate, count, trigger a pass).
 *
 * <p><b>Data.</b> Nothing is kept here: the records come from the controller's state, the runtime's bookkeeping (which
 * nodes still hold a part of a job, the GraceTime in force) comes in as arguments. No gRPC, threads or wall clock: the
 * time is an argument, read by the caller from its {@code InstantSource}.
 *
 * <p><b>Algorithm.</b> Decide, then act: a transition only builds values; the runtime's single applier ({@code
 * dev.gantry.scheduler.runtime.LifecycleApplier}) puts the records into the state and carries the effects out in one
 * documented order on the controller thread. A rule is therefore tested as a function (given this job and this
 * report at this time, these records and these effects), without a controller.
 *
 * <p><b>Rules copied.</b> Slurm's job states and exit mapping (https://slurm.schedmd.com/job_state_codes.html), the kill
 * sequence and COMPLETING until every node's epilog (slurmctld's job_completion_logger / epilog_complete), time limits
 * with OverTimeLimit (https://slurm.schedmd.com/slurm.conf.html#OPT_OverTimeLimit), scancel's permissions
 * (https://slurm.schedmd.com/scancel.html).
 */
package dev.gantry.scheduler.lifecycle;
