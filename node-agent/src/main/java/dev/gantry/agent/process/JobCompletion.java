package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitReport;
import java.time.InstantSource;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of a job whose batch script has exited and whose processes are all gone (Slurm's
 * epilog_complete): a final usage sample (a cgroup's CPU time also counts the processes that ended), whether it
 * ran out of memory, removal of its cgroups and spool directory, the epilog, then its exit to the sink (which
 * journals it before sending) and only then its removal from the job table on disk, so that a crash in between
 * loses neither. Runs on the supervisor's job scheduler.
 */
final class JobCompletion {

    private static final Logger LOG = LoggerFactory.getLogger(JobCompletion.class);

    private final Containment containment;
    private final BatchLauncher launcher;
    private final JobTableStore table;
    private final ExitSink sink;
    private final JobTelemetry telemetry;
    private final InstantSource clock;
    private final Object lock;

    /** @param lock the supervisor's lock, which guards the job's fields */
    JobCompletion(Containment containment, BatchLauncher launcher, JobTableStore table, ExitSink sink, JobTelemetry telemetry,
            InstantSource clock, Object lock) {
        this.containment = containment;
        this.launcher = launcher;
        this.table = table;
        this.sink = sink;
        this.telemetry = telemetry;
        this.clock = clock;
        this.lock = lock;
    }

    /** @param forget removes the job from the supervisor's table in memory, last */
    void complete(RunningJob job, Runnable forget) {
        UsageSampler.sample(containment, List.of(job), lock);
        boolean outOfMemory = job.group.outOfMemory();
        ExitReport exit;
        synchronized (lock) {
            exit = new ExitReport(job.jobId, job.status, job.terminateReason == null ? "" : job.terminateReason,
                    job.maxCpuSeconds, job.maxRssKb, job.startedAt, clock.instant(), outOfMemory, job.run);
        }
        job.group.release();
        launcher.cleanUp(job.jobId);
        launcher.runEpilog(job.jobId, job.user, job.partition).ifPresent(problem -> LOG.warn("job {}: {}", job.jobId, problem));
        LOG.info("job {}: ended, no process left; reporting exit {}:{}{}", job.jobId, exit.status().code(), exit.status().signal(),
                outOfMemory ? " (out of memory)" : "");
        sink.jobEnded(exit);
        table.remove(job.jobId);
        forget.run();
        if (outOfMemory) {
            telemetry.outOfMemory();
        }
    }
}
