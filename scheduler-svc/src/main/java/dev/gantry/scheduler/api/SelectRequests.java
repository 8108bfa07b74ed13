package dev.gantry.scheduler.api;

import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.ResourceAsk;
import dev.gantry.scheduler.preempt.PreemptionPlanner;

/**
 * The select-svc request for a pending job: everything its resolved {@link ResourceAsk} says, nothing left out, and its
 * user with its own --exclusive=user (select-svc adds each partition's ExclusiveUser=YES).
 */
public final class SelectRequests {
    private SelectRequests() {}

    public static ResourceRequest of(JobRecord j) {
        ResourceAsk a = j.ask();
        NodeSelection s = a.selection();
        ResourceRequest.Builder b = ResourceRequest.newBuilder()
                .setJobId(j.id())
                .addAllPartitions(j.partitions())
                .setMinNodes(a.minNodes())
                .setMaxNodes(a.maxNodes())
                .setNumTasks(a.numTasks())
                .setCpusPerTask(a.cpusPerTask())
                .setMemPerNodeMb(a.memPerNodeMb())
                .setNtasksPerNode(a.ntasksPerNode())
                .setMemPerCpuMb(a.memPerCpuMb())
                .setExclusive(s.exclusive())
                .setConstraint(s.constraint())
                .addAllNodelist(s.requiredNodes())
                .addAllExclude(s.excludedNodes())
                .setContiguous(s.contiguous())
                .setOversubscribe(s.oversubscribe())
                .setTimeLimitSeconds(j.timeLimitSeconds())
                .setUser(j.user() == null ? "" : j.user())
                .setExclusiveUser(PreemptionPlanner.askedExclusiveUser(j));
        s.gres().forEach(g -> b.addGres(JobProtos.gres(g)));
        return b.build();
    }
}
