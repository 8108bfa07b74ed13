package dev.gantry.cli.model;

import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A job as squeue and scontrol show it (Slurm's job_info_t): its identity and state, then its place in an array, how
 * it is scheduled, its times, what it holds, how its nodes are chosen, and what was submitted.
 *
 * @param jobId the job id
 * @param name the name it was submitted with (-J, or sbatch's default)
 * @param user the owner's user name
 * @param uid the owner's uid (an unsigned 32-bit value)
 * @param gid the job's group id (an unsigned 32-bit value)
 * @param state the base state
 * @param completing processes still being killed or reported (squeue's CG), whatever the base state
 * @param reason Slurm's Reason= as the controller sent it; "" when it sent none
 * @param partition the partition it runs in, or the first it may run in while pending
 * @param exitCode the batch script's exit status
 * @param exitSignal the signal that ended it; 0 if none
 * @param array its place in a job array
 * @param scheduling account, QOS, priority and what the scheduler did with it
 * @param times when things happened, its limit and its run time
 * @param resources what it holds, or while pending what it is expected to get
 * @param selection how its nodes are chosen, as the controller resolved the request
 * @param submitted the request as submitted, before the controller applied defaults
 */
public record JobInfo(long jobId, String name, String user, int uid, int gid, JobStatus state, boolean completing,
                      String reason, String partition, int exitCode, int exitSignal, ArrayTask array,
                      Scheduling scheduling, Times times, Resources resources, Selection selection,
                      Submitted submitted) {

    /** Whether the base state is PENDING. */
    public boolean pending() {
        return state == JobStatus.PENDING;
    }

    /**
     * Seconds the job has run, as Slurm's {@code job_time_used}, time suspended excluded: the controller's
     * {@code time_used_seconds}, computed when it answered. From a controller that does not send it, the same from the
     * recorded times: 0 while pending or never started, up to {@code now} while running, up to the suspension in
     * progress while suspended, up to its end once finished, less the earlier suspensions.
     */
    public long secondsUsed(Instant now) {
        if (times.timeUsedSeconds() != null) {
            return times.timeUsedSeconds();
        }
        Instant start = times.start();
        if (start == null || state == JobStatus.PENDING) {
            return 0;
        }
        Instant end = times.end();
        Instant until = switch (state) {
            case RUNNING -> now;
            case SUSPENDED -> times.lastStateChange() != null ? times.lastStateChange() : now;
            default -> end == null ? now : end;
        };
        return Math.max(0, Duration.between(start, until).getSeconds() - times.suspendSeconds());
    }

    /**
     * A job's place in a job array.
     *
     * @param arrayJobId the array's id (its first task's job id); 0 when not in an array
     * @param taskId this task's index; null on the array's pending remainder and outside arrays
     * @param taskSpec on the array's pending remainder, the tasks not yet split off ("5-99%10"); else ""
     * @param maxRunning the array's %n throttle; 0 for none
     */
    public record ArrayTask(long arrayJobId, Integer taskId, String taskSpec, int maxRunning) {

        /** The task's index, or on the pending remainder the tasks it stands for. */
        public String taskText() {
            return taskId != null ? Integer.toString(taskId) : taskSpec;
        }
    }

    /**
     * How the job is scheduled.
     *
     * @param account the effective account; "" when none
     * @param qos the effective QOS; "" when none
     * @param priority the priority the queue is ordered by (an unsigned 64-bit value)
     * @param nice the nice value
     * @param dependency the dependencies not yet satisfied, as scontrol shows them; "" when none remain
     * @param requeue whether it may be requeued
     * @param restartCount times it was requeued
     * @param byBackfill the backfill pass started it or, while pending, considered it after the last main pass
     * @param inLastBackfill while pending: the latest backfill pass considered it
     * @param schedNodes while pending: the nodes backfill expects it to start on
     * @param schedNodeList the same as a host list; "" when the controller sent only the names
     */
    public record Scheduling(String account, String qos, long priority, int nice, String dependency, boolean requeue,
                             int restartCount, boolean byBackfill, boolean inLastBackfill, List<String> schedNodes,
                             String schedNodeList) {

        public Scheduling {
            schedNodes = List.copyOf(schedNodes);
        }

        /** The nodes backfill expects the job on as a host list; "" when none. */
        public String schedHostList() {
            if (!schedNodeList.isEmpty()) {
                return schedNodeList;
            }
            return schedNodes.isEmpty() ? "" : Hostlist.compress(schedNodes);
        }
    }

    /**
     * When things happened; each instant null when unset ("not yet" or "unknown").
     *
     * @param submit when it was submitted
     * @param eligible when it became eligible to start
     * @param start the actual start, or the expected one while pending
     * @param end the actual end, or start plus time limit while running
     * @param lastStateChange the last change of state (a suspension in progress began then)
     * @param preempt when it was last picked as a preemption victim
     * @param preemptEligible while it holds resources: when preemption's time exemptions stop protecting it
     * @param lastSchedEval when a scheduling pass last considered it
     * @param timeLimitSeconds the effective limit; -1 UNLIMITED, 0 not set
     * @param timeUsedSeconds the controller's run time when it answered; null when it sent none
     * @param suspendSeconds time spent in finished suspensions
     * @param runSeconds run time up to the last state change, suspended time excluded
     */
    public record Times(Instant submit, Instant eligible, Instant start, Instant end, Instant lastStateChange,
                        Instant preempt, Instant preemptEligible, Instant lastSchedEval, long timeLimitSeconds,
                        Long timeUsedSeconds, long suspendSeconds, long runSeconds) {}

    /**
     * What the job holds, or while pending what it asks for.
     *
     * @param nodes allocated node names, in allocation order
     * @param nodeList the same as a host list; "" when the controller sent only the names
     * @param numNodes allocated nodes, or the requested minimum while pending
     * @param numCpus allocated CPUs, or requested while pending
     * @param numTasks tasks; 0 when not known
     * @param memPerNodeMb memory per node in MiB; 0 when not tracked
     * @param batchHost the node running the batch script; "" when none
     * @param allocation what it holds on each node
     */
    public record Resources(List<String> nodes, String nodeList, int numNodes, int numCpus, int numTasks,
                            long memPerNodeMb, String batchHost, List<NodeAllocation> allocation) {

        public Resources {
            nodes = List.copyOf(nodes);
            allocation = List.copyOf(allocation);
        }

        /** The allocated nodes as a Slurm host list; "" when none. */
        public String hostList() {
            if (!nodeList.isEmpty()) {
                return nodeList;
            }
            return nodes.isEmpty() ? "" : Hostlist.compress(nodes);
        }
    }

    /**
     * How the job's nodes are chosen, as the controller resolved the request.
     *
     * @param maxNodes the requested maximum node count; 0 when not known
     * @param memPerCpuMb MiB per CPU when memory is asked per CPU; else 0
     * @param ntasksPerNode tasks per node; 0 when not asked
     * @param gres generic resources per node
     * @param exclusive no other job shares its nodes
     * @param contiguous its nodes must be consecutive
     * @param constraint node features asked (-C); "" when none
     * @param reqNodes nodes it must include
     * @param excNodes nodes it must not use
     */
    public record Selection(int maxNodes, long memPerCpuMb, int ntasksPerNode, List<GresInfo> gres, boolean exclusive,
                            boolean contiguous, String constraint, List<String> reqNodes, List<String> excNodes) {

        public Selection {
            gres = List.copyOf(gres);
            reqNodes = List.copyOf(reqNodes);
            excNodes = List.copyOf(excNodes);
        }
    }

    /**
     * The request as submitted: each optional count null when the submitter left it to the defaults.
     *
     * @param partitions the partitions it may run in, as asked
     * @param cpusPerTask -c
     * @param minNodes -N's minimum
     * @param maxNodes -N's maximum
     * @param memPerNodeMb --mem in MiB
     * @param exclusiveUser --exclusive=user
     * @param workDir the working directory
     * @param submitHost the host it was submitted from
     * @param stdoutPath -o's pattern; "" for the default
     * @param stderrPath -e's pattern; "" for the same file as stdout
     */
    public record Submitted(List<String> partitions, Integer cpusPerTask, Integer minNodes, Integer maxNodes,
                            Long memPerNodeMb, boolean exclusiveUser, String workDir, String submitHost,
                            String stdoutPath, String stderrPath) {

        public Submitted {
            partitions = List.copyOf(partitions);
        }
    }
}
