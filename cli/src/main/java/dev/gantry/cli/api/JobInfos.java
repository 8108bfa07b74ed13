package dev.gantry.cli.api;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import dev.gantry.cli.model.NodeAllocation;
import java.util.Collection;
import java.util.List;

/** Maps the controller's jobs ({@link Job}) to {@link JobInfo}, and job states both ways (squeue -t asks by state). */
public final class JobInfos {

    private JobInfos() {}

    /** The jobs, in the same order. */
    public static List<JobInfo> jobs(Collection<Job> jobs) {
        return jobs.stream().map(JobInfos::job).toList();
    }

    public static JobInfo job(Job j) {
        JobSpec spec = j.getSpec();
        return new JobInfo(j.getJobId(), spec.getName(), spec.getUser(), spec.getUid(), spec.getGid(),
                state(j.getState()), j.getCompleting(), j.getReason(), j.getPartition(), j.getExitCode(),
                j.getExitSignal(), array(j), scheduling(j), times(j), resources(j), selection(j), submitted(spec));
    }

    /** The domain's state of an API state; UNSPECIFIED and values this client does not know are UNKNOWN. */
    public static JobStatus state(dev.gantry.api.v1.JobState state) {
        return switch (state) {
            case JOB_STATE_PENDING -> JobStatus.PENDING;
            case JOB_STATE_RUNNING -> JobStatus.RUNNING;
            case JOB_STATE_SUSPENDED -> JobStatus.SUSPENDED;
            case JOB_STATE_COMPLETED -> JobStatus.COMPLETED;
            case JOB_STATE_CANCELLED -> JobStatus.CANCELLED;
            case JOB_STATE_FAILED -> JobStatus.FAILED;
            case JOB_STATE_TIMEOUT -> JobStatus.TIMEOUT;
            case JOB_STATE_NODE_FAIL -> JobStatus.NODE_FAIL;
            case JOB_STATE_PREEMPTED -> JobStatus.PREEMPTED;
            case JOB_STATE_OUT_OF_MEMORY -> JobStatus.OUT_OF_MEMORY;
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> JobStatus.UNKNOWN;
        };
    }

    /** The API's state of a domain state; UNKNOWN is the API's UNSPECIFIED. */
    public static dev.gantry.api.v1.JobState toProto(JobStatus state) {
        return switch (state) {
            case PENDING -> dev.gantry.api.v1.JobState.JOB_STATE_PENDING;
            case RUNNING -> dev.gantry.api.v1.JobState.JOB_STATE_RUNNING;
            case SUSPENDED -> dev.gantry.api.v1.JobState.JOB_STATE_SUSPENDED;
            case COMPLETED -> dev.gantry.api.v1.JobState.JOB_STATE_COMPLETED;
            case CANCELLED -> dev.gantry.api.v1.JobState.JOB_STATE_CANCELLED;
            case FAILED -> dev.gantry.api.v1.JobState.JOB_STATE_FAILED;
            case TIMEOUT -> dev.gantry.api.v1.JobState.JOB_STATE_TIMEOUT;
            case NODE_FAIL -> dev.gantry.api.v1.JobState.JOB_STATE_NODE_FAIL;
            case PREEMPTED -> dev.gantry.api.v1.JobState.JOB_STATE_PREEMPTED;
            case OUT_OF_MEMORY -> dev.gantry.api.v1.JobState.JOB_STATE_OUT_OF_MEMORY;
            case UNKNOWN -> dev.gantry.api.v1.JobState.JOB_STATE_UNSPECIFIED;
        };
    }

    /** The states, in the same order. */
    public static List<dev.gantry.api.v1.JobState> toProto(Collection<JobStatus> states) {
        return states.stream().map(JobInfos::toProto).toList();
    }

    private static JobInfo.ArrayTask array(Job j) {
        return new JobInfo.ArrayTask(j.getArrayJobId(), j.hasArrayTaskId() ? j.getArrayTaskId() : null,
                j.getArrayTaskSpec(), j.getArrayMaxRunning());
    }

    private static JobInfo.Scheduling scheduling(Job j) {
        return new JobInfo.Scheduling(j.getAccount(), j.getQos(), j.getPriority(), j.getNice(), j.getDependency(),
                j.getRequeue(), j.getRestartCount(), j.getSchedByBackfill(), j.getSchedInLastBackfill(),
                j.getSchedNodesList(), j.getSchedNodeList());
    }

    private static JobInfo.Times times(Job j) {
        return new JobInfo.Times(ProtoTime.instant(j.getSubmitTime()), ProtoTime.instant(j.getEligibleTime()),
                ProtoTime.instant(j.getStartTime()), ProtoTime.instant(j.getEndTime()),
                ProtoTime.instant(j.getLastStateChange()), ProtoTime.instant(j.getPreemptTime()),
                ProtoTime.instant(j.getPreemptEligibleTime()), ProtoTime.instant(j.getLastSchedEval()),
                j.getTimeLimitSeconds(), j.hasTimeUsedSeconds() ? j.getTimeUsedSeconds() : null, j.getSuspendSeconds(),
                j.getRunSeconds());
    }

    private static JobInfo.Resources resources(Job j) {
        return new JobInfo.Resources(j.getNodesList(), j.getNodeList(), j.getNumNodes(), j.getNumCpus(),
                j.getNumTasks(), j.getMemPerNodeMb(), j.getBatchHost(),
                j.getAllocationList().stream().map(JobInfos::allocation).toList());
    }

    private static NodeAllocation allocation(dev.gantry.api.v1.NodeAllocation a) {
        return new NodeAllocation(a.getNode(), a.getMemoryMb(), a.getCoreIdsList(), gres(a.getGresList()));
    }

    private static JobInfo.Selection selection(Job j) {
        return new JobInfo.Selection(j.getMaxNodes(), j.getMemPerCpuMb(), j.getNtasksPerNode(), gres(j.getGresList()),
                j.getExclusive(), j.getContiguous(), j.getConstraint(), j.getReqNodesList(), j.getExcNodesList());
    }

    private static JobInfo.Submitted submitted(JobSpec s) {
        return new JobInfo.Submitted(s.getPartitionsList(), s.hasCpusPerTask() ? s.getCpusPerTask() : null,
                s.hasMinNodes() ? s.getMinNodes() : null, s.hasMaxNodes() ? s.getMaxNodes() : null,
                s.hasMemPerNodeMb() ? s.getMemPerNodeMb() : null, s.getExclusiveUser(), s.getWorkDir(),
                s.getSubmitHost(), s.getStdoutPath(), s.getStderrPath());
    }

    /** Generic resources, in the same order. */
    static List<GresInfo> gres(List<dev.gantry.api.v1.Gres> gres) {
        if (gres.isEmpty()) {
            return List.of();
        }
        return gres.stream().map(g -> new GresInfo(g.getName(), g.getType(), g.getCount(), g.getIndicesList())).toList();
    }
}
