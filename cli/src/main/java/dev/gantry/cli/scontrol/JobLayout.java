package dev.gantry.cli.scontrol;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.squeue.JobStates;
import dev.gantry.cli.squeue.JobView;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.cli.text.SlurmSizes;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.units.SlurmTime;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * {@code scontrol show job}: Slurm's field order and spelling (slurm_sprint_job_info in src/api/job_info.c).
 * Fields Gantry does not track print as Slurm prints them unset: (null), N/A, Unknown, None, 0.
 *
 * @param now when the report is made (RunTime counts up to it)
 * @param zone the zone times print in
 * @param groupNames group name for a gid, or null when unknown (then the number prints)
 * @param oneLiner scontrol -o
 * @param details scontrol -d: DerivedExitCode, and what the job holds on each node ({@link JobDetailLines}); null = no
 */
public record JobLayout(Instant now, ZoneId zone, IntFunction<String> groupNames, boolean oneLiner,
        JobDetailLines details) {

    /** Without -d. */
    public JobLayout(Instant now, ZoneId zone, IntFunction<String> groupNames, boolean oneLiner) {
        this(now, zone, groupNames, oneLiner, null);
    }

    /** With -d: {@code threadsPerCore} gives a node's ThreadsPerCore, to number the CPUs of the cores it holds. */
    public static JobLayout detailed(Instant now, ZoneId zone, IntFunction<String> groupNames, boolean oneLiner,
            ToIntFunction<String> threadsPerCore) {
        return new JobLayout(now, zone, groupNames, oneLiner, new JobDetailLines(threadsPerCore));
    }

    /** One job's record, ending with a blank line (one-liner: a newline). */
    public String render(Job job) {
        JobSpec spec = job.getSpec();
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("JobId=" + job.getJobId() + arrayIds(job) + " JobName=" + spec.getName()).newLine();
        String group = groupNames.apply(spec.getGid());
        r.add("UserId=" + spec.getUser() + "(" + Integer.toUnsignedString(spec.getUid()) + ") GroupId="
                + (group == null ? Integer.toUnsignedString(spec.getGid()) : group)
                + "(" + Integer.toUnsignedString(spec.getGid()) + ") MCS_label=N/A").newLine();
        r.add("Priority=" + Long.toUnsignedString(job.getPriority()) + " Nice=" + job.getNice() + " Account="
                + KeyValueRecord.orNull(job.getAccount()) + " QOS=" + KeyValueRecord.orNull(job.getQos())).newLine();
        r.add("JobState=" + JobStates.full(job) + " Reason=" + reason(job) + " Dependency="
                + KeyValueRecord.orNull(job.getDependency())).newLine();
        r.add("Requeue=" + (job.getRequeue() ? 1 : 0) + " Restarts=" + job.getRestartCount()
                + " BatchFlag=1 Reboot=0 ExitCode=" + job.getExitCode() + ":" + job.getExitSignal()).newLine();
        if (details != null) {
            r.add("DerivedExitCode=0:0").newLine(); // the highest exit code of its steps: not tracked
        }
        r.add("RunTime=" + SlurmTime.formatLimitLong(runSeconds(job)) + " TimeLimit=" + timeLimit(job)
                + " TimeMin=N/A").newLine();
        r.add("SubmitTime=" + time(job.getSubmitTime()) + " EligibleTime=" + time(job.getEligibleTime())).newLine();
        r.add("AccrueTime=" + time(job.getEligibleTime())).newLine();
        r.add("StartTime=" + time(job.getStartTime()) + " EndTime=" + endTime(job) + " Deadline=N/A").newLine();
        if (job.hasPreemptEligibleTime() || job.hasPreemptTime()) {
            // Slurm prints this line for jobs that have started: when preemption may take it, and when it did
            r.add("PreemptEligibleTime=" + (job.hasPreemptEligibleTime() ? time(job.getPreemptEligibleTime()) : "None")
                    + " PreemptTime=" + (job.hasPreemptTime() ? time(job.getPreemptTime()) : "None")).newLine();
        }
        r.add("SuspendTime=" + suspendTime(job) + " SecsPreSuspend=" + secsPreSuspend(job)
                + " LastSchedEval=" + (job.hasLastSchedEval() ? time(job.getLastSchedEval()) : "Unknown")
                + " Scheduler=" + scheduler(job)).newLine();
        r.add("Partition=" + KeyValueRecord.orNull(job.getPartition()) + " AllocNode:Sid="
                + KeyValueRecord.orNull(spec.getSubmitHost()) + ":0").newLine();
        r.add("ReqNodeList=" + hostlist(job.getReqNodesList()) + " ExcNodeList=" + hostlist(job.getExcNodesList())).newLine();
        r.add("NodeList=" + nodeList(job) + schedNodes(job)).newLine(); // Slurm: empty, not (null), when none
        if (!job.getBatchHost().isEmpty()) {
            r.add("BatchHost=" + job.getBatchHost()).newLine();
        }
        r.add("NumNodes=" + numNodes(job) + " NumCPUs=" + job.getNumCpus() + " NumTasks="
                + (job.getNumTasks() > 0 ? Integer.toString(job.getNumTasks()) : "N/A") + " CPUs/Task="
                + cpusPerTask(spec) + " ReqB:S:C:T=0:0:*:*").newLine();
        r.add("TRES=" + tres(job)).newLine();
        if (job.getGresCount() > 0) {
            r.add("TresPerNode=" + String.join(",", job.getGresList().stream().map(g -> "gres/" + gresText(g)).toList()))
                    .newLine();
        }
        r.add("Socks/Node=* NtasksPerN:B:S:C=" + job.getNtasksPerNode() + ":0:*:* CoreSpec=*").newLine();
        if (details != null) {
            details.of(job).forEach(line -> r.add(line).newLine());
        }
        r.add("MinCPUsNode=" + cpusPerTask(spec) + (job.getMemPerCpuMb() > 0
                ? " MinMemoryCPU=" + SlurmSizes.mebibytes(job.getMemPerCpuMb())
                : " MinMemoryNode=" + SlurmSizes.mebibytes(memoryMb(job))) + " MinTmpDiskNode=0").newLine();
        r.add("Features=" + KeyValueRecord.orNull(job.getConstraint()) + " DelayBoot=00:00:00").newLine();
        r.add("OverSubscribe=" + (job.getExclusive() ? "NO" : spec.getExclusiveUser() ? "USER" : "OK") + " Contiguous=" + (job.getContiguous() ? 1 : 0)
                + " Licenses=(null) Network=(null)").newLine();
        r.add("Command=(null)").newLine();
        r.add("WorkDir=" + KeyValueRecord.orNull(spec.getWorkDir()));
        long arrayJobId = job.getArrayJobId();
        int taskId = job.hasArrayTaskId() ? job.getArrayTaskId() : -1;
        String stdout = StdioPath.expand(spec.getStdoutPath(), job.getJobId(), arrayJobId, taskId, spec.getUser(),
                spec.getName(), spec.getWorkDir());
        String stderr = spec.getStderrPath().isEmpty() ? stdout
                : StdioPath.expand(spec.getStderrPath(), job.getJobId(), arrayJobId, taskId, spec.getUser(),
                        spec.getName(), spec.getWorkDir());
        r.newLine().add("StdErr=" + stderr);
        r.newLine().add("StdIn=/dev/null");
        r.newLine().add("StdOut=" + stdout);
        r.newLine();
        return r.end();
    }

    /** Reason=, with white space replaced by '_' as Slurm does for easier parsing. */
    private static String reason(Job job) {
        String reason = job.getReason().isEmpty() ? "None" : job.getReason();
        return reason.replaceAll("\\s", "_");
    }

    /** " ArrayJobId=123 ArrayTaskId=4" (" ArrayTaskThrottle=n" when limited) for an array task; "" otherwise. */
    private static String arrayIds(Job job) {
        if (job.getArrayJobId() == 0) {
            return "";
        }
        String task = job.hasArrayTaskId() ? Integer.toString(job.getArrayTaskId()) : job.getArrayTaskSpec();
        return " ArrayJobId=" + job.getArrayJobId() + " ArrayTaskId=" + task
                + (job.getArrayMaxRunning() > 0 ? " ArrayTaskThrottle=" + job.getArrayMaxRunning() : "");
    }

    /** " SchedNodeList=n[1-2]" while pending with nodes backfill expects it on; "" otherwise. */
    private static String schedNodes(Job job) {
        if (job.getState() != JobState.JOB_STATE_PENDING) {
            return "";
        }
        if (!job.getSchedNodeList().isEmpty()) {
            return " SchedNodeList=" + job.getSchedNodeList();
        }
        return job.getSchedNodesCount() == 0 ? "" : " SchedNodeList=" + Hostlist.compress(job.getSchedNodesList());
    }

    /** RunTime: time spent running, suspended time excluded ({@link JobView#timeUsed}). */
    private long runSeconds(Job job) {
        return JobView.timeUsed(job, now);
    }

    /**
     * Whether Slurm's suspend_time is set: the job is suspended, or runs again after a suspension (Slurm sets it at
     * every suspend and resume).
     */
    private static boolean suspendedOnce(Job job) {
        return job.getState() == JobState.JOB_STATE_SUSPENDED
                || (job.getState() == JobState.JOB_STATE_RUNNING && job.getSuspendSeconds() > 0);
    }

    /** SuspendTime: when the suspension in progress began, or when a resumed job was resumed; None otherwise. */
    private String suspendTime(Job job) {
        return suspendedOnce(job) && job.hasLastStateChange() ? time(job.getLastStateChange()) : "None";
    }

    /** SecsPreSuspend: the run time before the last suspend or resume (Slurm's pre_sus_time); 0 if never suspended. */
    private long secsPreSuspend(Job job) {
        if (!suspendedOnce(job)) {
            return 0;
        }
        return job.getState() == JobState.JOB_STATE_SUSPENDED ? runSeconds(job) : job.getRunSeconds();
    }

    private static String timeLimit(Job job) {
        long limit = job.getTimeLimitSeconds();
        if (limit == 0) {
            return "Partition_Limit";
        }
        return SlurmTime.formatLimitLong(limit);
    }

    private String time(com.google.protobuf.Timestamp ts) {
        return SlurmClock.scontrolTime(SlurmClock.instant(ts), zone);
    }

    /** EndTime: "Unknown" while an unlimited job may still run, or when not known. */
    private String endTime(Job job) {
        Instant end = SlurmClock.instant(job.getEndTime());
        if (job.getTimeLimitSeconds() < 0 && end != null && end.isAfter(now)) {
            return "Unknown";
        }
        return SlurmClock.scontrolTime(end, zone);
    }

    /**
     * NumNodes: once started, the nodes it has; while pending "N-M" when a node count was requested (N the nodes
     * backfill expects it to use, else the minimum; M the maximum), else just N — as Slurm, whose max_nodes is unset
     * without -N.
     */
    private static String numNodes(Job job) {
        JobSpec spec = job.getSpec();
        if (job.getState() != JobState.JOB_STATE_PENDING || !(spec.hasMinNodes() || spec.hasMaxNodes())) {
            return Integer.toString(job.getNumNodes());
        }
        int max = job.getMaxNodes() > 0 ? job.getMaxNodes() : spec.hasMaxNodes() ? spec.getMaxNodes() : job.getNumNodes();
        return Math.min(job.getNumNodes(), max) + "-" + max;
    }

    /** Scheduler=: Backfill when the backfill pass started it or last considered it, with :* for its latest pass. */
    private static String scheduler(Job job) {
        if (!job.getSchedByBackfill()) {
            return "Main";
        }
        return job.getSchedInLastBackfill() ? "Backfill:*" : "Backfill";
    }

    private static String nodeList(Job job) {
        if (!job.getNodeList().isEmpty()) {
            return job.getNodeList();
        }
        return job.getNodesCount() == 0 ? "" : Hostlist.compress(job.getNodesList());
    }

    private static int cpusPerTask(JobSpec spec) {
        return spec.hasCpusPerTask() ? spec.getCpusPerTask() : 1;
    }

    private static long memoryMb(Job job) {
        if (job.getMemPerCpuMb() > 0 && job.getNumCpus() > 0 && job.getNumNodes() > 0) {
            return job.getMemPerCpuMb() * ((job.getNumCpus() + job.getNumNodes() - 1) / job.getNumNodes());
        }
        if (job.getMemPerNodeMb() > 0) {
            return job.getMemPerNodeMb();
        }
        return job.getSpec().hasMemPerNodeMb() ? job.getSpec().getMemPerNodeMb() : 0;
    }

    /** TRES=cpu=N,mem=M,node=N,billing=N (mem omitted when not tracked). */
    private static String tres(Job job) {
        StringBuilder t = new StringBuilder("cpu=").append(job.getNumCpus());
        long mem = memoryMb(job);
        if (mem > 0) {
            t.append(",mem=").append(SlurmSizes.mebibytes(mem * Math.max(1, job.getNumNodes())));
        }
        t.append(",node=").append(job.getNumNodes()).append(",billing=").append(job.getNumCpus());
        for (Gres g : job.getGresList()) {
            t.append(",gres/").append(g.getName()).append('=').append(g.getCount() * Math.max(1, job.getNumNodes()));
        }
        return t.toString();
    }

    /** {@code gpu:2}, {@code gpu:a100:2}. */
    static String gresText(Gres g) {
        return g.getType().isEmpty() ? g.getName() + ":" + g.getCount() : g.getName() + ":" + g.getType() + ":" + g.getCount();
    }

    private static String hostlist(java.util.List<String> nodes) {
        return nodes.isEmpty() ? "(null)" : Hostlist.compress(nodes);
    }
}
