package dev.gantry.cli.command;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Iterator;

/**
 * sbatch --wait: blocks until a job has ended (finished and no longer completing), following
 * {@code Controller.WatchJobs}, watching again while the controller is unavailable for up to two minutes (it restarts);
 * a controller without WatchJobs is polled with GetJob instead.
 * The exit status is Slurm's: the job's exit code, or 1 when a signal ended it
 * (https://slurm.schedmd.com/sbatch.html#OPT_wait).
 */
final class JobWait {

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    /** Watches tried again, a second apart, while the controller is unavailable (a restart takes seconds). */
    static final int UNAVAILABLE_RETRIES = 120;

    private JobWait() {}

    /**
     * Waits for job {@code jobId} to end and returns its exit status for sbatch.
     *
     * @throws StatusRuntimeException when the controller fails or goes away
     * @throws InterruptedException when interrupted while polling
     */
    static int await(ControllerSession session, long jobId) throws InterruptedException {
        int retries = 0;
        while (true) {
            try {
                Iterator<WatchJobsResponse> updates = session.streamingStub().watchJobs(WatchJobsRequest.newBuilder()
                        .setFilter(ListJobsRequest.newBuilder().addJobIds(jobId)).build());
                while (updates.hasNext()) {
                    Job job = updates.next().getJob();
                    retries = 0; // the controller answered: a later loss starts a new count
                    if (job.getJobId() == jobId && ended(job)) {
                        return exitStatus(job);
                    }
                }
                throw Status.UNAVAILABLE.withDescription("job watch ended early").asRuntimeException();
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                    break;
                }
                // a controller that stops ends its watchers with UNAVAILABLE (gantry restart scheduler, a failover):
                // watch again once it is back, as Slurm's sbatch --wait keeps polling through a slurmctld restart
                if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || ++retries > UNAVAILABLE_RETRIES) {
                    throw e;
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            }
        }
        while (true) {
            Job job = session.stub().getJob(GetJobRequest.newBuilder().setJobId(jobId).build()).getJob();
            if (ended(job)) {
                return exitStatus(job);
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /** Finished (not pending, running or suspended) and no process left to reap. */
    static boolean ended(Job job) {
        if (job.getCompleting()) {
            return false;
        }
        return switch (job.getState()) {
            case JOB_STATE_PENDING, JOB_STATE_RUNNING, JOB_STATE_SUSPENDED, JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> false;
            default -> true;
        };
    }

    /** The job's exit code; 1 when a signal ended it, or when it failed without an exit code. */
    static int exitStatus(Job job) {
        if (job.getExitSignal() != 0) {
            return 1;
        }
        if (job.getState() == JobState.JOB_STATE_COMPLETED || job.getExitCode() != 0) {
            return job.getExitCode() & 0xff;
        }
        return 1;
    }
}
