package dev.gantry.agent.process;

import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Takes one usage sample of some jobs and folds it into their running maxima. */
final class UsageSampler {

    private static final Logger LOG = LoggerFactory.getLogger(UsageSampler.class);

    private UsageSampler() {}

    /**
     * Samples outside {@code lock} (reading /proc or cgroup files), then updates the jobs' CPU and memory fields
     * under it. A failed sample is skipped: usage is best effort.
     */
    static void sample(Containment containment, List<RunningJob> live, Object lock) {
        if (live.isEmpty()) {
            return;
        }
        try {
            Map<Containment.JobGroup, Containment.GroupUsage> usage = containment.sample(live.stream().map(j -> j.group).toList());
            synchronized (lock) {
                for (RunningJob job : live) {
                    Containment.GroupUsage u = usage.getOrDefault(job.group, Containment.GroupUsage.NONE);
                    job.maxCpuSeconds = Math.max(job.maxCpuSeconds, u.cpuSeconds());
                    job.maxRssKb = Math.max(job.maxRssKb, u.rssKb());
                    job.rssKb = u.rssKb();
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("usage sample failed: {}", e.getMessage());
        }
    }
}
