package dev.gantry.cli.api;

import dev.gantry.api.v1.JobPriority;
import dev.gantry.cli.model.PriorityInfo;
import dev.gantry.cli.model.PriorityWeightsInfo;
import dev.gantry.cli.model.ShareInfo;
import dev.gantry.cli.model.UsageInfo;
import java.util.Collection;
import java.util.List;

/** Maps sprio's priorities and weights, and sshare's rows, to the domain's values. */
public final class PriorityInfos {

    private PriorityInfos() {}

    /** The jobs' factors, in the same order. */
    public static List<PriorityInfo> priorities(Collection<JobPriority> priorities) {
        return priorities.stream().map(PriorityInfos::priority).toList();
    }

    public static PriorityInfo priority(JobPriority p) {
        return new PriorityInfo(p.getJobId(), p.getPartition(), p.getUser(), p.getAccount(), p.getQos(),
                p.getPriority(), p.getSite(), p.getAge(), p.getFairshare(), p.getJobSize(), p.getPartitionFactor(),
                p.getQosFactor(), p.getNice(), p.getTresMap(), p.getAdminSet());
    }

    public static PriorityWeightsInfo weights(dev.gantry.api.v1.PriorityWeights w) {
        return new PriorityWeightsInfo(w.getAge(), w.getFairshare(), w.getJobSize(), w.getPartition(), w.getQos(),
                w.getTresMap());
    }

    /** The rows, in the same (tree) order. */
    public static List<ShareInfo> shares(Collection<dev.gantry.api.v1.ShareRow> rows) {
        return rows.stream().map(PriorityInfos::share).toList();
    }

    public static ShareInfo share(dev.gantry.api.v1.ShareRow r) {
        return new ShareInfo(r.getAccount(), r.getUser(), r.getDepth(), r.getRawShares(), r.getNormShares(),
                r.getRawUsage(), r.getNormUsage(), r.getEffectiveUsage(), r.getFairshare(), r.getTresRawUsageMap(),
                amount(r.getUsageToHalve()), amount(r.getUsageToZero()));
    }

    static UsageInfo amount(dev.gantry.api.v1.UsageAmount a) {
        return new UsageInfo(a.getCpuHours(), a.getGpuHours(), a.getGbHours(), a.getNever());
    }
}
