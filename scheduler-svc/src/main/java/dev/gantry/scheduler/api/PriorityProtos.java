package dev.gantry.scheduler.api;

import dev.gantry.api.v1.JobPriority;
import dev.gantry.api.v1.UsageAmount;
import dev.gantry.scheduler.priority.PriorityFactors;
import dev.gantry.scheduler.priority.PriorityWeights;
import dev.gantry.scheduler.priority.ShareRow;

/** Maps sprio's and sshare's rows to the API. Infinite amounts (a TRES without billing weight) are sent as 0 with never. */
public final class PriorityProtos {
    private PriorityProtos() {}

    public static JobPriority priority(PriorityFactors f, boolean adminSet) {
        return JobPriority.newBuilder().setJobId(f.jobId()).setPartition(f.partition()).setUser(f.user())
                .setAccount(f.account()).setQos(f.qos()).setPriority(f.priority()).setSite(f.site()).setAge(f.age())
                .setFairshare(f.fairshare()).setJobSize(f.jobSize()).setPartitionFactor(f.partitionFactor())
                .setQosFactor(f.qosFactor()).setNice(f.nice()).putAllTres(f.tres()).setAdminSet(adminSet).build();
    }

    public static dev.gantry.api.v1.PriorityWeights weights(PriorityWeights w) {
        return dev.gantry.api.v1.PriorityWeights.newBuilder().setAge(w.age()).setFairshare(w.fairshare())
                .setJobSize(w.jobSize()).setPartition(w.partition()).setQos(w.qos()).putAllTres(w.tres().weights())
                .build();
    }

    public static dev.gantry.api.v1.ShareRow share(ShareRow r) {
        return dev.gantry.api.v1.ShareRow.newBuilder().setAccount(r.account()).setUser(r.user()).setDepth(r.depth())
                .setRawShares(r.rawShares()).setNormShares(r.normShares()).setRawUsage(r.rawUsage())
                .setNormUsage(r.normUsage()).setEffectiveUsage(r.effectiveUsage()).setFairshare(r.fairShare())
                .putAllTresRawUsage(r.tresRawUsage()).setUsageToHalve(amount(r.toHalve()))
                .setUsageToZero(amount(r.toZero())).build();
    }

    private static UsageAmount amount(dev.gantry.scheduler.priority.UsageAmount a) {
        if (a.never()) {
            return UsageAmount.newBuilder().setNever(true).build();
        }
        return UsageAmount.newBuilder().setCpuHours(finite(a.cpuHours())).setGpuHours(finite(a.gpuHours()))
                .setGbHours(finite(a.gbHours())).build();
    }

    /** A TRES that bills nothing can never move the factor alone: sent as -1. */
    private static double finite(double v) {
        return Double.isFinite(v) ? v : -1;
    }
}
