package dev.gantry.scheduler.cycle;

import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * What becomes of the jobs on a node that stopped responding for SlurmdTimeout, as slurmctld does
 * (<a href="https://slurm.schedmd.com/slurm.conf.html#OPT_JobRequeue">JobRequeue</a>,
 * <a href="https://slurm.schedmd.com/slurm.conf.html#OPT_SlurmdTimeout">SlurmdTimeout</a>): a running or suspended
 * job is requeued when it is requeueable (--requeue, or JobRequeue=1 when it gave neither), else it ends NODE_FAIL; a job already ending (its kill sequence was
 * waiting for the node to report) ends in the state it was ending in, since no report will come. Pure; jobs in
 * job id order.
 */
public final class NodeFailurePolicy {

    /** One job's fate. */
    public sealed interface Outcome {
        JobRecord job();
    }

    /** Back to the queue, same id. */
    public record Requeue(JobRecord job) implements Outcome {}

    /** Ends NODE_FAIL. */
    public record NodeFail(JobRecord job) implements Outcome {}

    /**
     * Was completing (CANCELLED, TIMEOUT, …): its part on the node counts as gone; it ends in that state, releasing its
     * resources, once no other node has a part of it left.
     */
    public record EndCompleting(JobRecord job) implements Outcome {}

    private NodeFailurePolicy() {}

    public static List<Outcome> onNodeDown(Collection<JobRecord> jobs, String node) {
        return jobs.stream()
                .filter(j -> ClusterState.holds(j) && j.allocation().stream().anyMatch(s -> s.node().equals(node)))
                .sorted(Comparator.comparingLong(JobRecord::id))
                .<Outcome>map(j -> {
                    if (j.completing()) {
                        return new EndCompleting(j);
                    }
                    boolean live = j.state() == JobState.RUNNING || j.state() == JobState.SUSPENDED;
                    return live && j.controls().requeue() ? new Requeue(j) : new NodeFail(j);
                })
                .toList();
    }
}
