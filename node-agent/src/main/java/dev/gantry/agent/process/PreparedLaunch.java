package dev.gantry.agent.process;

import dev.gantry.agent.job.JobUser;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import java.time.Duration;

/**
 * A prepared launch: the job is in its supervisor's table, its process exists, contained and bound, and waits for
 * "go". Settles once: {@link #go} releases it and enters it into the table as running (or stopped, when the controller
 * suspended it meanwhile); {@link #abandon} kills it unstarted and takes the job out. Thread-safe.
 */
final class PreparedLaunch implements LaunchPreparation {
    private final JobSupervisor supervisor;
    private final BatchLauncher launcher;
    private final JobTelemetry telemetry;
    private final LaunchOrder order;
    private final RunningJob job;
    private final JobUser user;
    private final Containment.JobGroup group;
    private final Process process;
    /** From the credential check to the process's exec, as the telemetry reports a launch's latency. */
    private final long latencyNanos;
    private boolean settled;

    PreparedLaunch(JobSupervisor supervisor, BatchLauncher launcher, JobTelemetry telemetry, LaunchOrder order, RunningJob job,
            JobUser user, Containment.JobGroup group, Process process, long latencyNanos) {
        this.supervisor = supervisor;
        this.launcher = launcher;
        this.telemetry = telemetry;
        this.order = order;
        this.job = job;
        this.user = user;
        this.group = group;
        this.process = process;
        this.latencyNanos = latencyNanos;
    }

    @Override
    public LaunchOutcome go() {
        synchronized (this) {
            if (settled) {
                throw new IllegalStateException("job " + job.jobId + ": launch already settled");
            }
            settled = true;
        }
        LaunchOutcome outcome = supervisor.release(order, job, user, group, process);
        telemetry.launched(outcome, outcome instanceof LaunchOutcome.Started ? Duration.ofNanos(latencyNanos) : null);
        return outcome;
    }

    @Override
    public void abandon() {
        synchronized (this) {
            if (settled) {
                return;
            }
            settled = true;
        }
        launcher.abandon(job.jobId, process);
        supervisor.notStarted(job, group, new LaunchOutcome.Failed("the launch did not reach every node of the job"));
    }
}
