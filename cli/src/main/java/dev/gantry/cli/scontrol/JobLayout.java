package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import dev.gantry.cli.squeue.JobStates;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.cli.text.SlurmSizes;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.units.SlurmTime;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
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
    public String render(JobInfo job) {
        JobInfo.Scheduling sched = job.scheduling();
        JobInfo.Times times = job.times();
        JobInfo.Resources res = job.resources();
        JobInfo.Selection sel = job.selection();
        JobInfo.Submitted asked = job.submitted();
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("JobId=" + job.jobId() + arrayIds(job) + " JobName=" + job.name()).newLine();
        String group = groupNames.apply(job.gid());
        r.add("UserId=" + job.user() + "(" + Integer.toUnsignedString(job.uid()) + ") GroupId="
                + (group == null ? Integer.toUnsignedString(job.gid()) : group)
                + "(" + Integer.toUnsignedString(job.gid()) + ") MCS_label=N/A").newLine();
        r.add("Priority=" + Long.toUnsignedString(sched.priority()) + " Nice=" + sched.nice() + " Account="
                + KeyValueRecord.orNull(sched.account()) + " QOS=" + KeyValueRecord.orNull(sched.qos())).newLine();
        r.add("JobState=" + JobStates.full(job) + " Reason=" + reason(job) + " Dependency="
                + KeyValueRecord.orNull(sched.dependency())).newLine();
        r.add("Requeue=" + (sched.requeue() ? 1 : 0) + " Restarts=" + sched.restartCount()
                + " BatchFlag=1 Reboot=0 ExitCode=" + job.exitCode() + ":" + job.exitSignal()).newLine();
        if (details != null) {
            r.add("DerivedExitCode=0:0").newLine(); // the highest exit code of its steps: not tracked
        }
        r.add("RunTime=" + SlurmTime.formatLimitLong(runSeconds(job)) + " TimeLimit=" + timeLimit(job)
                + " TimeMin=N/A").newLine();
        r.add("SubmitTime=" + time(times.submit()) + " EligibleTime=" + time(times.eligible())).newLine();
        r.add("AccrueTime=" + time(times.eligible())).newLine();
        r.add("StartTime=" + time(times.start()) + " EndTime=" + endTime(job) + " Deadline=N/A").newLine();
        if (times.preemptEligible() != null || times.preempt() != null) {
            // Slurm prints this line for jobs that have started: when preemption may take it, and when it did
            r.add("PreemptEligibleTime=" + (times.preemptEligible() != null ? time(times.preemptEligible()) : "None")
                    + " PreemptTime=" + (times.preempt() != null ? time(times.preempt()) : "None")).newLine();
        }
        r.add("SuspendTime=" + suspendTime(job) + " SecsPreSuspend=" + secsPreSuspend(job)
                + " LastSchedEval=" + (times.lastSchedEval() != null ? time(times.lastSchedEval()) : "Unknown")
                + " Scheduler=" + scheduler(job)).newLine();
        r.add("Partition=" + KeyValueRecord.orNull(job.partition()) + " AllocNode:Sid="
                + KeyValueRecord.orNull(asked.submitHost()) + ":0").newLine();
        r.add("ReqNodeList=" + hostlist(sel.reqNodes()) + " ExcNodeList=" + hostlist(sel.excNodes())).newLine();
        r.add("NodeList=" + res.hostList() + schedNodes(job)).newLine(); // Slurm: empty, not (null), when none
        if (!res.batchHost().isEmpty()) {
            r.add("BatchHost=" + res.batchHost()).newLine();
        }
        r.add("NumNodes=" + numNodes(job) + " NumCPUs=" + res.numCpus() + " NumTasks="
                + (res.numTasks() > 0 ? Integer.toString(res.numTasks()) : "N/A") + " CPUs/Task="
                + cpusPerTask(asked) + " ReqB:S:C:T=0:0:*:*").newLine();
        r.add("TRES=" + tres(job)).newLine();
        if (!sel.gres().isEmpty()) {
            r.add("TresPerNode=" + String.join(",", sel.gres().stream().map(g -> "gres/" + gresText(g)).toList()))
                    .newLine();
        }
        r.add("Socks/Node=* NtasksPerN:B:S:C=" + sel.ntasksPerNode() + ":0:*:* CoreSpec=*").newLine();
        if (details != null) {
            details.of(job).forEach(line -> r.add(line).newLine());
        }
        r.add("MinCPUsNode=" + cpusPerTask(asked) + (sel.memPerCpuMb() > 0
                ? " MinMemoryCPU=" + SlurmSizes.mebibytes(sel.memPerCpuMb())
                : " MinMemoryNode=" + SlurmSizes.mebibytes(memoryMb(job))) + " MinTmpDiskNode=0").newLine();
        r.add("Features=" + KeyValueRecord.orNull(sel.constraint()) + " DelayBoot=00:00:00").newLine();
        r.add("OverSubscribe=" + (sel.exclusive() ? "NO" : asked.exclusiveUser() ? "USER" : "OK") + " Contiguous="
                + (sel.contiguous() ? 1 : 0) + " Licenses=(null) Network=(null)").newLine();
        r.add("Command=(null)").newLine();
        r.add("WorkDir=" + KeyValueRecord.orNull(asked.workDir()));
        long arrayJobId = job.array().arrayJobId();
        int taskId = job.array().taskId() != null ? job.array().taskId() : -1;
        String stdout = StdioPath.expand(asked.stdoutPath(), job.jobId(), arrayJobId, taskId, job.user(),
                job.name(), asked.workDir());
        String stderr = asked.stderrPath().isEmpty() ? stdout
                : StdioPath.expand(asked.stderrPath(), job.jobId(), arrayJobId, taskId, job.user(),
                        job.name(), asked.workDir());
        r.newLine().add("StdErr=" + stderr);
        r.newLine().add("StdIn=/dev/null");
        r.newLine().add("StdOut=" + stdout);
        r.newLine();
        return r.end();
    }

    /** Reason=, with white space replaced by '_' as Slurm does for easier parsing. */
    private static String reason(JobInfo job) {
        String reason = job.reason().isEmpty() ? "None" : job.reason();
        return reason.replaceAll("\\s", "_");
    }

    /** " ArrayJobId=123 ArrayTaskId=4" (" ArrayTaskThrottle=n" when limited) for an array task; "" otherwise. */
    private static String arrayIds(JobInfo job) {
        JobInfo.ArrayTask array = job.array();
        if (array.arrayJobId() == 0) {
            return "";
        }
        return " ArrayJobId=" + array.arrayJobId() + " ArrayTaskId=" + array.taskText()
                + (array.maxRunning() > 0 ? " ArrayTaskThrottle=" + array.maxRunning() : "");
    }

    /** " SchedNodeList=n[1-2]" while pending with nodes backfill expects it on; "" otherwise. */
    private static String schedNodes(JobInfo job) {
        if (!job.pending()) {
            return "";
        }
        String nodes = job.scheduling().schedHostList();
        return nodes.isEmpty() ? "" : " SchedNodeList=" + nodes;
    }

    /** RunTime: time spent running, suspended time excluded ({@link JobInfo#secondsUsed}). */
    private long runSeconds(JobInfo job) {
        return job.secondsUsed(now);
    }

    /**
     * Whether Slurm's suspend_time is set: the job is suspended, or runs again after a suspension (Slurm sets it at
     * every suspend and resume).
     */
    private static boolean suspendedOnce(JobInfo job) {
        return job.state() == JobStatus.SUSPENDED
                || (job.state() == JobStatus.RUNNING && job.times().suspendSeconds() > 0);
    }

    /** SuspendTime: when the suspension in progress began, or when a resumed job was resumed; None otherwise. */
    private String suspendTime(JobInfo job) {
        Instant changed = job.times().lastStateChange();
        return suspendedOnce(job) && changed != null ? time(changed) : "None";
    }

    /** SecsPreSuspend: the run time before the last suspend or resume (Slurm's pre_sus_time); 0 if never suspended. */
    private long secsPreSuspend(JobInfo job) {
        if (!suspendedOnce(job)) {
            return 0;
        }
        return job.state() == JobStatus.SUSPENDED ? runSeconds(job) : job.times().runSeconds();
    }

    private static String timeLimit(JobInfo job) {
        long limit = job.times().timeLimitSeconds();
        if (limit == 0) {
            return "Partition_Limit";
        }
        return SlurmTime.formatLimitLong(limit);
    }

    private String time(Instant t) {
        return SlurmClock.scontrolTime(t, zone);
    }

    /** EndTime: "Unknown" while an unlimited job may still run, or when not known. */
    private String endTime(JobInfo job) {
        Instant end = job.times().end();
        if (job.times().timeLimitSeconds() < 0 && end != null && end.isAfter(now)) {
            return "Unknown";
        }
        return SlurmClock.scontrolTime(end, zone);
    }

    /**
     * NumNodes: once started, the nodes it has; while pending "N-M" when a node count was requested (N the nodes
     * backfill expects it to use, else the minimum; M the maximum), else just N — as Slurm, whose max_nodes is unset
     * without -N.
     */
    private static String numNodes(JobInfo job) {
        JobInfo.Submitted asked = job.submitted();
        int numNodes = job.resources().numNodes();
        if (!job.pending() || (asked.minNodes() == null && asked.maxNodes() == null)) {
            return Integer.toString(numNodes);
        }
        int maxNodes = job.selection().maxNodes();
        int max = maxNodes > 0 ? maxNodes : asked.maxNodes() != null ? asked.maxNodes() : numNodes;
        return Math.min(numNodes, max) + "-" + max;
    }

    /** Scheduler=: Backfill when the backfill pass started it or last considered it, with :* for its latest pass. */
    private static String scheduler(JobInfo job) {
        if (!job.scheduling().byBackfill()) {
            return "Main";
        }
        return job.scheduling().inLastBackfill() ? "Backfill:*" : "Backfill";
    }

    private static int cpusPerTask(JobInfo.Submitted asked) {
        return asked.cpusPerTask() != null ? asked.cpusPerTask() : 1;
    }

    private static long memoryMb(JobInfo job) {
        JobInfo.Resources res = job.resources();
        long perCpu = job.selection().memPerCpuMb();
        if (perCpu > 0 && res.numCpus() > 0 && res.numNodes() > 0) {
            return perCpu * ((res.numCpus() + res.numNodes() - 1) / res.numNodes());
        }
        if (res.memPerNodeMb() > 0) {
            return res.memPerNodeMb();
        }
        return job.submitted().memPerNodeMb() != null ? job.submitted().memPerNodeMb() : 0;
    }

    /** TRES=cpu=N,mem=M,node=N,billing=N (mem omitted when not tracked). */
    private static String tres(JobInfo job) {
        JobInfo.Resources res = job.resources();
        StringBuilder t = new StringBuilder("cpu=").append(res.numCpus());
        long mem = memoryMb(job);
        if (mem > 0) {
            t.append(",mem=").append(SlurmSizes.mebibytes(mem * Math.max(1, res.numNodes())));
        }
        t.append(",node=").append(res.numNodes()).append(",billing=").append(res.numCpus());
        for (GresInfo g : job.selection().gres()) {
            t.append(",gres/").append(g.name()).append('=').append(g.count() * Math.max(1, res.numNodes()));
        }
        return t.toString();
    }

    /** {@code gpu:2}, {@code gpu:a100:2}. */
    static String gresText(GresInfo g) {
        return g.typedName() + ":" + g.count();
    }

    private static String hostlist(List<String> nodes) {
        return nodes.isEmpty() ? "(null)" : Hostlist.compress(nodes);
    }
}
