package dev.gantry.scheduler.control;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes on which a part of each job (its batch script, a multi-node job's allocation holder, step tasks, the
 * epilog) may still be, as slurmctld keeps a job COMPLETING until every node's epilog_complete
 * (https://slurm.schedmd.com/job_launch.html, "Job termination"). Every node of a job enters when it starts (or is
 * loaded still holding resources); a node leaves once its agent has shown that nothing of the job is left there: the
 * job's exit report from that node (sent after the last process is gone and the epilog ran), a terminate answered
 * "not running here", a registration that does not list the job, or the node going DOWN. Pure, not thread-safe: the
 * controller thread owns it.
 */
public final class JobParts {

    private final Map<Long, Set<String>> left = new HashMap<>();

    /** The job holds {@code nodes} (batch host first): a part of it may be on each. Replaces what was known. */
    public void started(long jobId, List<String> nodes) {
        left.put(jobId, new LinkedHashSet<>(nodes));
    }

    /**
     * Nothing of the job is left on {@code node}. Idempotent.
     *
     * @return whether this was the job's last node (false when the node had already left, or the job is unknown)
     */
    public boolean gone(long jobId, String node) {
        Set<String> nodes = left.get(jobId);
        if (nodes == null || !nodes.remove(node)) {
            return false;
        }
        if (nodes.isEmpty()) {
            left.remove(jobId);
            return true;
        }
        return false;
    }

    /** Whether a part of the job may still be on {@code node}. */
    public boolean on(long jobId, String node) {
        Set<String> nodes = left.get(jobId);
        return nodes != null && nodes.contains(node);
    }

    /** The nodes on which a part of the job may still be, in allocation order; empty when none. */
    public List<String> left(long jobId) {
        Set<String> nodes = left.get(jobId);
        return nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** Stops tracking the job (its resources were released). */
    public void forget(long jobId) {
        left.remove(jobId);
    }
}
