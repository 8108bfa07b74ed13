package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.AgentJobState;
import dev.gantry.agent.job.JobUser;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;

/** One job in the supervisor's table. Mutable; every field is guarded by the supervisor's lock. */
final class RunningJob {

    final long jobId;
    /** The run this is (its restart count); {@link #ANY_RUN} for a job re-adopted from a table that did not record it. */
    final int run;
    AgentJobState state = AgentJobState.STARTING;
    /** While STARTING: the controller holds the job suspended, so it starts stopped. */
    boolean startSuspended;
    /** The batch script's process when this agent run started it; null for a job re-adopted after a restart. */
    Process process;
    /** The leader's pid and /proc start time, which name it for good (set once it runs). */
    long pid;
    long pidStartTicks;
    String partition = "";
    /** Whether the leader is known to be inside its group or cgroups (see JobSupervisor.settle). */
    boolean settled;
    JobUser user = new JobUser("", 0, 0);
    Containment.JobGroup group;
    Instant startedAt;
    /** Set by the first TerminateJob; the exit report carries it. */
    String terminateReason;
    /** A TerminateJob that came while the process was still starting: its kill wait, applied once it runs. */
    Duration pendingKillWait;
    ScheduledFuture<?> killTimer;
    ExitStatus status;
    double maxCpuSeconds;
    long maxRssKb;
    /** The latest sample's resident memory, for the per-partition gauges. */
    long rssKb;

    static final int ANY_RUN = -1;

    RunningJob(long jobId, int run) {
        this.jobId = jobId;
        this.run = run;
    }

    /** Whether a suspend or resume for run {@code run} of this job is meant for this one. */
    boolean isRun(int run) {
        return this.run == ANY_RUN || this.run == run;
    }

    /** A job an earlier run of the agent started, as its table entry names it. */
    static RunningJob adopted(JobTableStore.Entry e, Containment.JobGroup group) {
        RunningJob job = new RunningJob(e.jobId(), e.run());
        job.pid = e.pid();
        job.pidStartTicks = e.pidStartTicks();
        job.partition = e.partition();
        job.user = e.user();
        job.startedAt = e.startedAt();
        job.group = group;
        job.state = e.suspended() ? AgentJobState.SUSPENDED : AgentJobState.RUNNING;
        return job;
    }

    /**
     * Before the first signal, freeze or thaw of a job this run started: waits until its leader is in place (joined
     * its cgroups, or leads its process group), which takes microseconds to a few milliseconds after the launch
     * returned, so that nothing sent to the job misses it. Launches themselves do not wait for it.
     */
    void settle() {
        if (!settled && process != null) {
            BatchLauncher.awaitInPlace(process, group);
        }
        settled = true;
    }

    boolean hasProcess() {
        return group != null;
    }

    JobTableStore.Entry entry() {
        return new JobTableStore.Entry(jobId, run, pid, pidStartTicks, startedAt, partition, user, group.descriptor(),
                state == AgentJobState.SUSPENDED, terminateReason == null ? "" : terminateReason);
    }
}
