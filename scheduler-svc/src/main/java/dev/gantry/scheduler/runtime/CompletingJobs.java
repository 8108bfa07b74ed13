package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.control.JobParts;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job ends when its batch script does, but keeps its nodes until nothing of it is left on any of them: Slurm's
 * COMPLETING until every node's epilog_complete. When the batch host reports the script's end, the job takes its final
 * state (COMPLETED, FAILED, CANCELLED, …) still completing (squeue CG), and its part on every other node (a multi-node
 * job's allocation holder and step tasks) is terminated; the resources go back only once each of those nodes has shown
 * that nothing of the job is left there ({@link JobParts}). Runs on the controller thread.
 *
 * <p>A job whose node went DOWN ends NODE_FAIL (or is requeued) the same way: the DOWN node's part counts as gone, the
 * others are terminated and waited for. Not covered here: a launch that failed releases its resources at once (the
 * other nodes' parts are terminated meanwhile).
 */
final class CompletingJobs {

    private static final Logger LOG = LoggerFactory.getLogger(CompletingJobs.class);

    private final Controller controller;
    private final JobParts parts = new JobParts();

    CompletingJobs(Controller controller) {
        this.controller = controller;
    }

    /** The job was placed on its nodes (or loaded still holding them): a part of it may be on each. */
    void started(JobRecord j) {
        parts.started(j.id(), j.nodeNames());
    }

    /**
     * Whether the batch host's end of this job is still to come (it has not reported, nor shown the job gone); also
     * for a job whose parts are not tracked, which a report then ends.
     */
    boolean awaitsBatchHost(JobRecord j) {
        return parts.on(j.id(), j.batchHost()) || parts.left(j.id()).isEmpty();
    }

    /**
     * The batch host reported the end of the batch script, no process of it being left there, with this outcome
     * (for a requeued job, {@code end} is PENDING). Returns the version to persist: released when no other node has a
     * part left, else in its final state and completing, with the other parts terminated.
     */
    JobRecord batchEnded(JobRecord j, JobState end, String reason, int exitCode, int exitSignal, Instant ended) {
        parts.gone(j.id(), j.batchHost());
        List<String> left = parts.left(j.id());
        if (left.isEmpty()) {
            return end == JobState.PENDING ? controller.backInQueue(j)
                    : controller.finish(j, end, reason, exitCode, exitSignal, ended);
        }
        JobRecord ending = end == JobState.PENDING ? j
                : (j.completing() ? j.toBuilder().state(end, controller.clock.instant())
                        : Controller.stopping(j, end, controller.clock.instant()))
                        .reason(reason).exit(exitCode, exitSignal)
                        .endTime(j.endTime() != null && j.endTime().isBefore(ended) ? j.endTime() : ended).build();
        controller.state.put(ending);
        controller.launcher.endParts(ending, left, end == JobState.PENDING ? "requeued" : "job ended");
        LOG.info("job {} ended on {} ({}); completing until its part on {} is gone", j.id(), j.batchHost(), end, left);
        return ending;
    }

    /**
     * A node of the running job went DOWN: its part there counts as gone, and the job ends NODE_FAIL ({@code requeue}
     * false) or goes back to the queue; at once when no other node has a part left, else once the others, terminated
     * now, have shown theirs gone. Returns the version to persist, or null when {@link Controller#requeue} wrote it.
     */
    JobRecord nodeDown(JobRecord j, String node, boolean requeue, String why) {
        parts.gone(j.id(), node);
        List<String> left = parts.left(j.id());
        Instant now = controller.clock.instant();
        if (left.isEmpty()) {
            if (requeue) {
                controller.requeue(j, why);
                return null;
            }
            return controller.finish(j, JobState.NODE_FAIL, "NodeDown", 0, 0, now);
        }
        JobRecord ending = requeue
                ? Controller.stopping(j, JobState.PENDING, now).reason(dev.gantry.scheduler.model.PendingReason.NONE).build()
                : Controller.stopping(j, JobState.NODE_FAIL, now).reason("NodeDown").exit(0, 0).endTime(now).build();
        controller.state.put(ending);
        controller.launcher.endParts(ending, left, why);
        LOG.warn("job {}: {}; {} once its part on {} is gone", j.id(), why, requeue ? "requeued" : "NODE_FAIL", left);
        return ending;
    }

    /**
     * Nothing of the job is left on {@code node}: the node's exit report (any node but the batch host), a terminate
     * answered "not running here", or a registration without the job. Idempotent. Returns the version to persist when
     * this was the last node of a completing job (which is released), else null.
     */
    JobRecord partGone(long jobId, String node) {
        JobRecord j = controller.state.job(jobId);
        if (j == null || !ClusterState.holds(j)) {
            return null;
        }
        boolean last = parts.gone(jobId, node) || parts.left(jobId).isEmpty(); // (untracked: nothing known to wait for)
        if (!last || !j.completing()) {
            return null;
        }
        LOG.info("job {}: nothing of it is left on any node (the last was {}); releasing its resources", jobId, node);
        return j.state() == JobState.PENDING ? controller.backInQueue(j)
                : controller.finish(j, j.state(), j.reason(), j.exitCode(), j.exitSignal(),
                        j.endTime() != null ? j.endTime() : controller.clock.instant());
    }

    /**
     * A registering agent lists the jobs it still has: every held job with a part on that node that it does not list
     * has nothing left there. Returns the versions to persist (jobs this released).
     */
    List<JobRecord> registered(String node, Collection<Long> listed) {
        List<Long> gone = new ArrayList<>();
        for (JobRecord j : controller.state.jobs()) {
            if (ClusterState.holds(j) && parts.on(j.id(), node) && !listed.contains(j.id())) {
                gone.add(j.id());
            }
        }
        List<JobRecord> released = new ArrayList<>();
        for (long id : gone) {
            JobRecord v = partGone(id, node);
            if (v != null) {
                released.add(v);
            }
        }
        return released;
    }

    /**
     * The job's resources are being released whatever is left (it ended, or goes back to the queue): terminates its part
     * on every node other than the batch host where one may still be, and stops tracking it.
     */
    void released(JobRecord j, String why) {
        List<String> left = new ArrayList<>(parts.left(j.id()));
        parts.forget(j.id());
        left.remove(j.batchHost());
        if (!left.isEmpty()) {
            controller.launcher.endParts(j, left, why);
        }
    }
}
