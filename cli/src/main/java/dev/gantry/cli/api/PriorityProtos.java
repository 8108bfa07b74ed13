package dev.gantry.cli.api;

import dev.gantry.api.v1.JobPriority;
import dev.gantry.cli.model.PriorityFactors;
import dev.gantry.cli.model.PriorityWeights;
import dev.gantry.cli.model.ShareRow;
import dev.gantry.cli.model.UsageAmount;
import java.util.Collection;
import java.util.List;

/** Maps sprio's priorities and weights, and sshare's rows, to the domain's values. */
public final class PriorityProtos {

    private PriorityProtos() {}

    /** The jobs' factors, in the same order. */
    public static List<PriorityFactors> priorities(Collection<JobPriority> priorities) {
        return priorities.stream().map(PriorityProtos::priority).toList();
    }

    public static PriorityFactors priority(JobPriority p) {
        return new PriorityFactors(p.getJobId(), p.getPartition(), p.getUser(), p.getAccount(), p.getQos(),
                p.getPriority(), p.getSite(), p.getAge(), p.getFairshare(), p.getJobSize(), p.getPartitionFactor(),
                p.getQosFactor(), p.getNice(), p.getTresMap(), p.getAdminSet());
    }

    public static PriorityWeights weights(dev.gantry.api.v1.PriorityWeights w) {
        return new PriorityWeights(w.getAge(), w.getFairshare(), w.getJobSize(), w.getPartition(), w.getQos(),
                w.getTresMap());
    }

    /** The rows, in the same (tree) order. */
    public static List<ShareRow> shares(Collection<dev.gantry.api.v1.ShareRow> rows) {
        return rows.stream().map(PriorityProtos::share).toList();
    }

    public static ShareRow share(dev.gantry.api.v1.ShareRow r) {
        return new ShareRow(r.getAccount(), r.getUser(), r.getDepth(), r.getRawShares(), r.getNormShares(),
                r.getRawUsage(), r.getNormUsage(), r.getEffectiveUsage(), r.getFairshare(), r.getTresRawUsageMap(),
                amount(r.getUsageToHalve()), amount(r.getUsageToZero()));
    }

    static UsageAmount amount(dev.gantry.api.v1.UsageAmount a) {
        return new UsageAmount(a.getCpuHours(), a.getGpuHours(), a.getGbHours(), a.getNever());
    }
}
