package dev.gantry.cli.api;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.sbatch.BatchControls;
import dev.gantry.cli.sbatch.BatchJob;
import dev.gantry.cli.sbatch.BatchNodeSelection;
import dev.gantry.cli.sbatch.Submitter;

/**
 * Maps sbatch's {@link BatchJob} to the controller's {@link JobSpec}. What the request leaves null stays unset in
 * the spec (the {@code optional} counts keep "not given" apart from any value), for the controller to default.
 */
public final class BatchJobSpecs {

    private BatchJobSpecs() {}

    public static JobSpec spec(BatchJob r) {
        Submitter who = r.submitter();
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName(r.name())
                .setScript(r.script())
                .addAllArgv(r.argv())
                .setWorkDir(r.workDir())
                .putAllEnvironment(who.environment())
                .setUser(who.user())
                .setUid(who.uid())
                .setGid(who.gid())
                .setSubmitDir(who.directory().toString())
                .setSubmitHost(who.host())
                .addAllPartitions(r.partitions());
        if (r.stdoutPath() != null) {
            spec.setStdoutPath(r.stdoutPath());
        }
        if (r.stderrPath() != null) {
            spec.setStderrPath(r.stderrPath());
        }
        if (r.minNodes() != null) {
            spec.setMinNodes(r.minNodes());
        }
        if (r.maxNodes() != null) {
            spec.setMaxNodes(r.maxNodes());
        }
        if (r.ntasks() != null) {
            spec.setNtasks(r.ntasks());
        }
        if (r.cpusPerTask() != null) {
            spec.setCpusPerTask(r.cpusPerTask());
        }
        if (r.memPerNodeMb() != null) {
            spec.setMemPerNodeMb(r.memPerNodeMb());
        }
        if (r.memPerCpuMb() != null) {
            spec.setMemPerCpuMb(r.memPerCpuMb());
        }
        if (r.ntasksPerNode() != null) {
            spec.setNtasksPerNode(r.ntasksPerNode());
        }
        if (r.timeLimitSeconds() != null) {
            spec.setTimeLimitSeconds(r.timeLimitSeconds());
        }
        selection(spec, r.selection());
        controls(spec, r.controls());
        return spec.build();
    }

    private static void selection(JobSpec.Builder spec, BatchNodeSelection s) {
        spec.addAllGres(s.gres()).setExclusive(s.exclusive()).setExclusiveUser(s.exclusiveUser())
                .setContiguous(s.contiguous()).setOversubscribe(s.oversubscribe());
        if (s.constraint() != null) {
            spec.setConstraint(s.constraint());
        }
        if (s.nodelist() != null) {
            spec.setNodelist(s.nodelist());
        }
        if (s.exclude() != null) {
            spec.setExclude(s.exclude());
        }
    }

    private static void controls(JobSpec.Builder spec, BatchControls c) {
        spec.setHold(c.hold());
        if (c.account() != null) {
            spec.setAccount(c.account());
        }
        if (c.qos() != null) {
            spec.setQos(c.qos());
        }
        if (c.nice() != null) {
            spec.setNice(c.nice());
        }
        if (c.begin() != null) {
            spec.setBeginTime(ProtoTime.timestamp(c.begin()));
        }
        if (c.dependency() != null) {
            spec.setDependency(c.dependency());
        }
        if (c.array() != null) {
            spec.setArray(c.array());
        }
        if (c.requeue() != null) {
            spec.setRequeue(c.requeue());
        }
    }
}
