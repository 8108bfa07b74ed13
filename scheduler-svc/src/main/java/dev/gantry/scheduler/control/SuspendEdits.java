package dev.gantry.scheduler.control;

import dev.gantry.scheduler.control.JobEdits.Caller;
import dev.gantry.scheduler.control.JobEdits.Changed;
import dev.gantry.scheduler.control.JobEdits.Edit;
import dev.gantry.scheduler.control.JobEdits.Refused;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Duration;
import java.time.Instant;

/**
 * scontrol suspend and resume (https://slurm.schedmd.com/scontrol.html, "suspend", "resume"), checked in this order
 * with Slurm's messages:
 * <ol>
 *   <li>only an operator or administrator may ("Access/permission denied");</li>
 *   <li>a pending job: "Job is pending execution"; a finished or completing one: "Job/step already completing or
 *       completed";</li>
 *   <li>suspend needs a RUNNING job, resume a job an operator suspended — a job gang scheduling or preemption
 *       suspended stays in their hands ("Requested operation is presently disabled");</li>
 *   <li>resume needs the CPUs the suspension released to be free again: Slurm would resume onto CPUs now given to
 *       other jobs (over-allocating them); Gantry refuses with "Requested nodes are busy" until they are free.</li>
 * </ol>
 * A suspended job keeps its nodes, memory and GRES and releases its CPUs ({@link JobRecord#adminSuspended()}); the
 * time it spends suspended counts neither as run time nor against its time limit. Pure.
 */
public final class SuspendEdits {
    private SuspendEdits() {}

    public static final String ALREADY_DONE = "Job/step already completing or completed";
    public static final String BUSY = "Requested nodes are busy";

    /** scontrol suspend of one job at {@code now}. */
    public static Edit suspend(JobRecord j, Caller caller, Instant now) {
        String refused = common(j, caller);
        if (refused != null) {
            return new Refused(refused);
        }
        if (j.state() != JobState.RUNNING) {
            return new Refused(JobEdits.DISABLED);
        }
        return new Changed(j.toBuilder().state(JobState.SUSPENDED, now).adminSuspended(true).build());
    }

    /**
     * scontrol resume of one job at {@code now}; {@code state} tells whether the CPUs it released are free.
     */
    public static Edit resume(JobRecord j, Caller caller, Instant now, ClusterState state) {
        String refused = common(j, caller);
        if (refused != null) {
            return new Refused(refused);
        }
        if (j.state() != JobState.SUSPENDED || !j.adminSuspended()) {
            return new Refused(JobEdits.DISABLED);
        }
        if (!cpusFree(j, state)) {
            return new Refused(BUSY);
        }
        long suspended = j.suspendedSeconds() + (j.lastStateChange() == null ? 0
                : Math.max(0, Duration.between(j.lastStateChange(), now).getSeconds()));
        return new Changed(j.toBuilder().suspendedSeconds(suspended).state(JobState.RUNNING, now).adminSuspended(false)
                .build());
    }

    private static String common(JobRecord j, Caller caller) {
        if (!caller.admin()) {
            return JobEdits.DENIED;
        }
        if (j.state() == JobState.PENDING && !j.completing()) {
            return JobEdits.PENDING;
        }
        if (j.state().isFinished() || j.completing()) {
            return ALREADY_DONE;
        }
        return null;
    }

    /**
     * Whether every node still has the CPUs the job released, and none of its cores is held by another job: the node's
     * allocated CPUs (this job's not counted while it is suspended by an operator) plus its own fit the node.
     */
    static boolean cpusFree(JobRecord j, ClusterState state) {
        for (NodeShare s : j.allocation()) {
            NodeRecord n = state.node(s.node());
            if (n == null || n.allocCpus() + s.cpus() > n.config().cpus()) {
                return false;
            }
            for (int core : s.coreIds()) {
                if (state.coreUse(s.node(), core) > 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
