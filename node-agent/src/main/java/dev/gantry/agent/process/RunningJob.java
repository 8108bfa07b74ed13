package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;

/** One job in the supervisor's table. Mutable; every field is guarded by the supervisor's lock. */
final class RunningJob {

    final long jobId;
    JobState state = JobState.STARTING;
    Process process;
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

    RunningJob(long jobId) {
        this.jobId = jobId;
    }

    boolean hasProcess() {
        return group != null;
    }
}
