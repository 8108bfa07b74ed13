package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.control.JobParts;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.lifecycle.JobEnding;
import dev.gantry.scheduler.lifecycle.JobExit;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A job ends when its batch script does, but keeps its nodes until nothing of it is left on any of them: Slurm's
 * COMPLETING until every node's epilog_complete. This keeps which nodes may still have a part of each job ({@link
 * JobParts}) and hands the lifecycle's pure transitions ({@link JobEnding}, {@link JobExit}) the nodes left; the
 * decisions it returns are carried out by the {@link LifecycleApplier}. Runs on the controller thread.
 *
 * <p>When the batch host reports the script's end, the job takes its final state (COMPLETED, FAILED, CANCELLED, …)
 * still completing (squeue CG), and its part on every other node (a multi-node job's allocation holder and step tasks)
 * is terminated; the resources go back only once each of those nodes has shown that nothing of the job is left there.
 * A job whose node went DOWN ends NODE_FAIL (or is requeued) the same way: the DOWN node's part counts as gone.
 */
final class CompletingJobs {

    private final ClusterState state;
    private final JobParts parts = new JobParts();

    CompletingJobs(ClusterState state) {
        this.state = state;
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

    /** Whether the controller holds job {@code j} and a part of it may be on {@code node}. */
    boolean hasPartOn(JobRecord j, String node) {
        return ClusterState.holds(j) && parts.on(j.id(), node);
    }

    /**
     * The batch host reported the end of the batch script, no process of it being left there ({@link
     * JobExit#batchHostReported}).
     */
    Decision batchEnded(JobRecord j, JobExit.Report report, long graceSeconds, Instant now) {
        parts.gone(j.id(), j.batchHost());
        return JobExit.batchHostReported(j, report, graceSeconds, parts.left(j.id()), now);
    }

    /** A node of the running job went DOWN: its part there counts as gone ({@link JobEnding#nodeDown}). */
    Decision nodeDown(JobRecord j, String node, boolean requeue, String why, Instant now) {
        parts.gone(j.id(), node);
        return JobEnding.nodeDown(j, requeue, why, parts.left(j.id()), now);
    }

    /**
     * Nothing of the job is left on {@code node}: the node's exit report (any node but the batch host), a terminate
     * answered "not running here", or a registration without the job. Idempotent. Releases a completing job when this
     * was its last node ({@link JobEnding#lastPartGone}); else decides nothing.
     */
    Decision partGone(long jobId, String node, Instant now) {
        JobRecord j = state.job(jobId);
        if (j == null || !ClusterState.holds(j)) {
            return Decision.NONE;
        }
        boolean last = parts.gone(jobId, node) || parts.left(jobId).isEmpty(); // (untracked: nothing known to wait for)
        if (!last || !j.completing()) {
            return Decision.NONE;
        }
        return JobEnding.lastPartGone(j, node, now);
    }

    /**
     * A registering agent lists the jobs it still has: every held job with a part on that node that it does not list
     * has nothing left there. Returns the releases this decides.
     */
    Decision registered(String node, Collection<Long> listed, Instant now) {
        List<Long> gone = new ArrayList<>();
        for (JobRecord j : state.jobs()) {
            if (ClusterState.holds(j) && parts.on(j.id(), node) && !listed.contains(j.id())) {
                gone.add(j.id());
            }
        }
        Decision released = Decision.NONE;
        for (long id : gone) {
            released = released.and(partGone(id, node, now));
        }
        return released;
    }

    /**
     * The job's resources are being released whatever is left (it ended, or goes back to the queue): stops tracking it
     * and returns the nodes other than the batch host where a part of it may still be, to end.
     */
    List<String> released(JobRecord j) {
        List<String> left = new ArrayList<>(parts.left(j.id()));
        parts.forget(j.id());
        left.remove(j.batchHost());
        return left;
    }
}
