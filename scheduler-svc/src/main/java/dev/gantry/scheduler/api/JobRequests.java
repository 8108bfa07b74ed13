package dev.gantry.scheduler.api;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.model.JobRequest;
import java.util.function.Consumer;

/**
 * Maps a submitted job between the API ({@link JobSpec}) and the domain ({@link JobRequest}), field for field: an
 * {@code optional} field's presence is kept (unset is null), so {@code toProto(fromProto(s))} equals {@code s} and
 * serializes to the same bytes — the stored form of a job ({@link JobProtos}) is unchanged by the mapping. Used where a
 * request comes in (the gRPC service) and wherever the proto goes out (the store, answers, the launch).
 */
public final class JobRequests {
    private JobRequests() {}

    public static JobRequest fromProto(JobSpec s) {
        return JobRequest.builder()
                .name(s.getName())
                .script(s.getScript())
                .argv(s.getArgvList())
                .workDir(s.getWorkDir())
                .stdoutPath(s.getStdoutPath())
                .stderrPath(s.getStderrPath())
                .partitions(s.getPartitionsList())
                .minNodes(s.hasMinNodes() ? s.getMinNodes() : null)
                .maxNodes(s.hasMaxNodes() ? s.getMaxNodes() : null)
                .ntasks(s.hasNtasks() ? s.getNtasks() : null)
                .cpusPerTask(s.hasCpusPerTask() ? s.getCpusPerTask() : null)
                .memPerNodeMb(s.hasMemPerNodeMb() ? s.getMemPerNodeMb() : null)
                .timeLimitSeconds(s.hasTimeLimitSeconds() ? s.getTimeLimitSeconds() : null)
                .environment(s.getEnvironmentMap())
                .user(s.getUser())
                .uid(s.getUid())
                .gid(s.getGid())
                .submitDir(s.getSubmitDir())
                .submitHost(s.getSubmitHost())
                .ntasksPerNode(s.hasNtasksPerNode() ? s.getNtasksPerNode() : null)
                .memPerCpuMb(s.hasMemPerCpuMb() ? s.getMemPerCpuMb() : null)
                .gres(s.getGresList())
                .exclusive(s.getExclusive())
                .constraint(s.getConstraint())
                .nodelist(s.getNodelist())
                .exclude(s.getExclude())
                .contiguous(s.getContiguous())
                .oversubscribe(s.getOversubscribe())
                .account(s.getAccount())
                .qos(s.getQos())
                .nice(s.hasNice() ? s.getNice() : null)
                .hold(s.getHold())
                .beginTime(s.hasBeginTime() ? JobProtos.instant(s.getBeginTime()) : null)
                .dependency(s.getDependency())
                .array(s.getArray())
                .requeue(s.hasRequeue() ? s.getRequeue() : null)
                .exclusiveUser(s.getExclusiveUser())
                .build();
    }

    public static JobSpec toProto(JobRequest r) {
        return toProto(r, true);
    }

    /**
     * The request as a spec; without the batch script and environment unless {@code withPrivateParts} (they are
     * in no answer but GetJob's JOB_VIEW_PRIVATE: leaving them out here also spares copying the environment).
     */
    public static JobSpec toProto(JobRequest r, boolean withPrivateParts) {
        JobSpec.Builder b = JobSpec.newBuilder()
                .setName(r.name())
                .addAllArgv(r.argv())
                .setWorkDir(r.workDir())
                .setStdoutPath(r.stdoutPath())
                .setStderrPath(r.stderrPath())
                .addAllPartitions(r.partitions())
                .setUser(r.user())
                .setUid(r.uid())
                .setGid(r.gid())
                .setSubmitDir(r.submitDir())
                .setSubmitHost(r.submitHost())
                .addAllGres(r.gres())
                .setExclusive(r.exclusive())
                .setConstraint(r.constraint())
                .setNodelist(r.nodelist())
                .setExclude(r.exclude())
                .setContiguous(r.contiguous())
                .setOversubscribe(r.oversubscribe())
                .setAccount(r.account())
                .setQos(r.qos())
                .setHold(r.hold())
                .setDependency(r.dependency())
                .setArray(r.array())
                .setExclusiveUser(r.exclusiveUser());
        // optional fields: set only when given, so an unset one stays absent (hasX() false) as it came in
        setIfGiven(r.minNodes(), b::setMinNodes);
        setIfGiven(r.maxNodes(), b::setMaxNodes);
        setIfGiven(r.ntasks(), b::setNtasks);
        setIfGiven(r.cpusPerTask(), b::setCpusPerTask);
        setIfGiven(r.memPerNodeMb(), b::setMemPerNodeMb);
        setIfGiven(r.timeLimitSeconds(), b::setTimeLimitSeconds);
        setIfGiven(r.ntasksPerNode(), b::setNtasksPerNode);
        setIfGiven(r.memPerCpuMb(), b::setMemPerCpuMb);
        setIfGiven(r.nice(), b::setNice);
        setIfGiven(r.beginTime(), t -> b.setBeginTime(JobProtos.ts(t)));
        setIfGiven(r.requeue(), b::setRequeue);
        if (withPrivateParts) {
            b.setScript(r.script()).putAllEnvironment(r.environment());
        }
        return b.build();
    }

    /** squeue's part of the spec (JOB_VIEW_SUMMARY): the user, uid, gid, working directory and partitions asked. */
    public static JobSpec summary(JobRequest r) {
        return JobSpec.newBuilder().setUser(r.user()).setUid(r.uid()).setGid(r.gid()).setWorkDir(r.workDir())
                .addAllPartitions(r.partitions()).build();
    }

    /** Sets an {@code optional} proto field from a domain value that is null when not given. */
    private static <T> void setIfGiven(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
