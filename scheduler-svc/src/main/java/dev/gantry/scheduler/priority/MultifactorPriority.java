package dev.gantry.scheduler.priority;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.QosConfig;
import dev.gantry.common.resources.GresSpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slurm's multifactor job priority (https://slurm.schedmd.com/priority_multifactor.html#general):
 * <pre>
 *   priority = site + W_age·age + W_fs·fairshare + W_size·jobsize + W_part·partition + W_qos·qos
 *            + Σ W_tres·tres − nice            (then truncated, at least 1, at most 4294967295)
 * </pre>
 * <ul>
 *   <li>age = min(1, (now − eligible) / PriorityMaxAge), 0 before the job is eligible (1 when PriorityMaxAge=0);</li>
 *   <li>fair share from a {@link FairShareTable};</li>
 *   <li>job size = (nodes/cluster nodes + CPUs/cluster CPUs)/2 (nodes alone for a job without CPUs); with
 *       PriorityFavorSmall ((N−nodes)/N + (C−CPUs)/C)/2; within 0..1;</li>
 *   <li>partition = PriorityJobFactor / the largest PriorityJobFactor (the value itself with NO_NORMAL_PART);</li>
 *   <li>qos = QOS Priority / the largest QOS Priority (the value itself with NO_NORMAL_QOS);</li>
 *   <li>tres, per TRES with a weight: the job's count / the partition's total (the count itself with
 *       NO_NORMAL_TRES).</li>
 * </ul>
 * Pure and immutable; build one per config (and cluster size) and use it for every job.
 */
public final class MultifactorPriority {

    /** Slurm's largest priority (32 bits, unsigned). */
    public static final long MAX_PRIORITY = 0xFFFF_FFFFL;

    private record PartitionTerms(double factor, double[] tresScale) {}

    private final PriorityWeights weights;
    private final long clusterCpus;
    private final long clusterNodes;
    private final String[] tresNames;
    private final Map<String, PartitionTerms> partitions = new HashMap<>();
    private final PartitionTerms unknownPartition;
    private final Map<String, Double> qosFactor = new HashMap<>();

    /**
     * @param partitionTotals each partition's TRES totals (for the TRES factors' denominators)
     * @param partitionJobFactors PriorityJobFactor by partition
     * @param qosPriorities Priority by QOS
     */
    public MultifactorPriority(PriorityWeights weights, long clusterCpus, long clusterNodes,
            Map<String, TresAmount> partitionTotals, Map<String, Integer> partitionJobFactors,
            Map<String, Integer> qosPriorities) {
        this.weights = weights;
        this.clusterCpus = clusterCpus;
        this.clusterNodes = clusterNodes;
        this.tresNames = weights.tres().weights().keySet().toArray(String[]::new);
        int maxJobFactor = partitionJobFactors.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        for (Map.Entry<String, Integer> p : partitionJobFactors.entrySet()) {
            double factor = p.getValue() == 0 ? 0
                    : weights.normalizePartition() ? (double) p.getValue() / maxJobFactor : p.getValue();
            TresAmount totals = partitionTotals.getOrDefault(p.getKey(), TresAmount.of(0, 0, 0));
            double[] scale = new double[tresNames.length];
            for (int i = 0; i < tresNames.length; i++) {
                long total = totals.count(tresNames[i]);
                double w = weights.tres().weight(tresNames[i]);
                scale[i] = !weights.normalizeTres() ? w : total > 0 ? w / total : 0;
            }
            partitions.put(p.getKey(), new PartitionTerms(factor, scale));
        }
        double[] none = new double[tresNames.length];
        if (!weights.normalizeTres()) {
            for (int i = 0; i < tresNames.length; i++) {
                none[i] = weights.tres().weight(tresNames[i]);
            }
        }
        this.unknownPartition = new PartitionTerms(0, none);
        int maxQos = qosPriorities.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        qosPriorities.forEach((name, prio) -> qosFactor.put(name,
                prio == 0 ? 0 : weights.normalizeQos() ? (double) prio / maxQos : prio));
    }

    /** The priority settings, cluster size, partitions (members' CPUs, memory, nodes, GRES) and QOS of a config. */
    public static MultifactorPriority of(ClusterConfig config) {
        Map<String, NodeConfig> nodes = new HashMap<>();
        long cpus = 0;
        for (NodeConfig n : config.nodes()) {
            nodes.put(n.name(), n);
            cpus += n.cpus();
        }
        Map<String, TresAmount> totals = new LinkedHashMap<>();
        Map<String, Integer> jobFactors = new LinkedHashMap<>();
        for (PartitionConfig p : config.partitions()) {
            long c = 0;
            long mem = 0;
            Map<String, Long> gres = new HashMap<>();
            for (String name : p.nodes()) {
                NodeConfig n = nodes.get(name);
                c += n.cpus();
                mem += n.realMemoryMb();
                for (GresSpec g : n.gres()) {
                    gres.merge(g.name(), g.count(), Long::sum);
                }
            }
            totals.put(p.name(), new TresAmount(c, mem, p.nodes().size(), gres));
            jobFactors.put(p.name(), p.priorityJobFactor());
        }
        Map<String, Integer> qos = new LinkedHashMap<>();
        for (QosConfig q : config.qos()) {
            qos.put(q.name(), q.priority());
        }
        return new MultifactorPriority(PriorityWeights.of(config), cpus, config.nodes().size(), totals, jobFactors, qos);
    }

    public PriorityWeights weights() {
        return weights;
    }

    /** The job's priority and each weighted factor (what sprio shows). */
    public PriorityFactors factors(PriorityInput job, Instant now, FairShareTable fairShare) {
        PartitionTerms part = partitions.getOrDefault(job.partition(), unknownPartition);
        double age = weights.age() * ageFactor(job.eligibleEpochSecond(), now.getEpochSecond());
        double fs = weights.fairshare() == 0 ? 0 : weights.fairshare() * fairShare.factor(job.account(), job.user());
        double size = weights.jobSize() == 0 ? 0 : weights.jobSize() * sizeFactor(job.tres());
        double partition = weights.partition() * part.factor();
        double qos = weights.qos() * qosFactor.getOrDefault(job.qos(), 0.0);
        Map<String, Double> tres = new LinkedHashMap<>();
        for (int i = 0; i < tresNames.length; i++) {
            tres.put(tresNames[i], job.tres().count(tresNames[i]) * part.tresScale()[i]);
        }
        long total = priority(job, now.getEpochSecond(), fairShare); // one summation order for both entry points
        return new PriorityFactors(job.jobId(), job.partition(), job.user(), job.account(), job.qos(), total,
                job.site(), age, fs, size, partition, qos, job.nice(), tres);
    }

    /** The job's priority alone (the same number as {@link #factors}, without building the breakdown). */
    public long priority(PriorityInput job, Instant now, FairShareTable fairShare) {
        return priority(job, now.getEpochSecond(), fairShare);
    }

    /** Priorities of many jobs at one time, in the list's order. */
    public long[] priorities(List<PriorityInput> jobs, Instant now, FairShareTable fairShare) {
        long t = now.getEpochSecond();
        long[] out = new long[jobs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = priority(jobs.get(i), t, fairShare);
        }
        return out;
    }

    private long priority(PriorityInput job, long now, FairShareTable fairShare) {
        PartitionTerms part = partitions.getOrDefault(job.partition(), unknownPartition);
        double sum = job.site() + weights.age() * ageFactor(job.eligibleEpochSecond(), now)
                + weights.partition() * part.factor()
                + weights.qos() * qosFactor.getOrDefault(job.qos(), 0.0) - job.nice();
        if (weights.fairshare() != 0) {
            sum += weights.fairshare() * fairShare.factor(job.account(), job.user());
        }
        if (weights.jobSize() != 0) {
            sum += weights.jobSize() * sizeFactor(job.tres());
        }
        double[] scale = part.tresScale();
        for (int i = 0; i < tresNames.length; i++) {
            sum += job.tres().count(tresNames[i]) * scale[i];
        }
        return clamp(sum);
    }

    /** min(1, waited / PriorityMaxAge); 0 before eligibility. */
    double ageFactor(long eligible, long now) {
        if (eligible == PriorityInput.NOT_ELIGIBLE || eligible > now) {
            return 0;
        }
        long waited = now - eligible;
        return waited < weights.maxAgeSeconds() ? (double) waited / weights.maxAgeSeconds() : 1.0;
    }

    /** Slurm's job size factor from nodes and CPUs relative to the cluster, within 0..1. */
    double sizeFactor(TresAmount tres) {
        if (clusterNodes == 0) {
            return 0;
        }
        long nodes = Math.max(1, tres.nodes());
        double f;
        if (weights.favorSmall()) {
            f = (double) (clusterNodes - nodes) / clusterNodes;
            if (tres.cpus() > 0 && clusterCpus > 0) {
                f = (f + (double) (clusterCpus - tres.cpus()) / clusterCpus) / 2;
            }
        } else {
            f = (double) nodes / clusterNodes;
            if (tres.cpus() > 0 && clusterCpus > 0) {
                f = (f + (double) tres.cpus() / clusterCpus) / 2;
            }
        }
        return Math.max(0, Math.min(1, f));
    }

    private static long clamp(double sum) {
        if (!(sum >= 1)) {
            return 1;
        }
        return sum >= MAX_PRIORITY ? MAX_PRIORITY : (long) sum;
    }
}
