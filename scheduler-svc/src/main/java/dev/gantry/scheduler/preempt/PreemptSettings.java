package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.common.config.PreemptParameters;
import dev.gantry.common.config.QosConfig;
import dev.gantry.scheduler.model.JobRecord;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Preemption's configuration, checked as Slurm checks it (https://slurm.schedmd.com/preempt.html, slurm.conf(5)):
 * PreemptType, the cluster-wide PreemptMode, per-partition modes (preempt/partition_prio) and per-QOS modes
 * (preempt/qos), GraceTime, PreemptExemptTime, PreemptParameters, and Gantry's Moab limits PreemptMinActiveTime,
 * PreemptMaxActiveTime and PreemptMaxVictims. Immutable.
 *
 * @param exemptSeconds global PreemptExemptTime (REQUEUE and CANCEL only); 0 = none
 * @param minActiveSeconds PreemptMinActiveTime: a job started or resumed less than this ago is kept; 0 = off
 * @param maxActiveSeconds PreemptMaxActiveTime: a job that has run longer than this is kept; 0 = off
 * @param maxVictims PreemptMaxVictims: a preemptor needing more victims waits
 */
public record PreemptSettings(PreemptType type, PreemptMode clusterMode, Map<String, PartitionRule> partitions,
        Map<String, QosRule> qos, long exemptSeconds, long minActiveSeconds, long maxActiveSeconds, int maxVictims,
        PreemptParameters parameters) {

    /** Preemption off (PreemptType=preempt/none). */
    public static final PreemptSettings NONE = new PreemptSettings(PreemptType.NONE, PreemptMode.OFF, Map.of(),
            Map.of(), 0, 0, 0, 32, PreemptParameters.DEFAULT);

    public PreemptSettings {
        partitions = Map.copyOf(partitions);
        qos = Map.copyOf(qos);
    }

    /**
     * Checks the preemption keys of a parsed config together. Each value was parsed and checked on its own at load
     * (PreemptMode, PreemptParameters, with file and line); what is left is how they combine.
     *
     * @throws IllegalArgumentException naming the key (and the partition or QOS) and what Slurm would say is wrong
     */
    public static PreemptSettings of(ClusterConfig config) {
        PreemptType type = PreemptType.parse(config.get(Keys.PREEMPT_TYPE));
        PreemptMode cluster = config.get(Keys.PREEMPT_MODE);
        checkCluster(type, cluster);
        Map<String, PartitionRule> partitions = new LinkedHashMap<>();
        for (PartitionConfig p : config.partitions()) {
            partitions.put(p.name(), partition(p, type, cluster));
        }
        Map<String, QosRule> qos = new LinkedHashMap<>();
        for (QosConfig q : config.qos()) {
            qos.put(q.name(), qos(q, type, cluster));
        }
        checkPreemptLists(qos);
        long min = config.get(Keys.PREEMPT_MIN_ACTIVE_TIME);
        long max = config.get(Keys.PREEMPT_MAX_ACTIVE_TIME);
        if (min > 0 && max > 0 && min > max) {
            throw new IllegalArgumentException("PreemptMinActiveTime=" + min + "s is longer than PreemptMaxActiveTime="
                    + max + "s: no job could ever be preempted");
        }
        long exempt = Math.max(0, config.get(Keys.PREEMPT_EXEMPT_TIME)); // -1 disables the option, as 0 (slurm.conf)
        return new PreemptSettings(type, cluster, partitions, qos, exempt, min, max,
                config.get(Keys.PREEMPT_MAX_VICTIMS), config.get(Keys.PREEMPT_PARAMETERS));
    }

    private static void checkCluster(PreemptType type, PreemptMode cluster) {
        String key = "PreemptMode=" + cluster + ": ";
        if (cluster.action() == PreemptAction.SUSPEND && !cluster.gang()) {
            throw new IllegalArgumentException(key + "PreemptMode=SUSPEND requires GANG too (the gang scheduler "
                    + "resumes suspended jobs; write SUSPEND,GANG)");
        }
        if (type == PreemptType.NONE && (cluster.action() != PreemptAction.OFF || cluster.within())) {
            throw new IllegalArgumentException(key + "PreemptType and PreemptMode values incompatible "
                    + "(PreemptType=preempt/none allows only OFF, optionally with GANG)");
        }
        if (type != PreemptType.NONE && cluster.action() == PreemptAction.OFF) {
            throw new IllegalArgumentException(key + "PreemptType and PreemptMode values incompatible (OFF is only "
                    + "compatible with PreemptType=preempt/none; PreemptType=" + type.configName() + " needs CANCEL, "
                    + "REQUEUE or SUSPEND,GANG)");
        }
        if (cluster.within() && type != PreemptType.QOS) {
            throw new IllegalArgumentException(key + "WITHIN applies only to PreemptType=preempt/qos");
        }
    }

    private static PartitionRule partition(PartitionConfig p, PreemptType type, PreemptMode cluster) {
        PreemptMode mode = p.preemptMode();
        if (mode != null) {
            String key = "PartitionName=" + p.name() + " PreemptMode=" + mode;
            if (mode.action() != PreemptAction.OFF && type != PreemptType.PARTITION_PRIO) {
                throw new IllegalArgumentException(key + ": a partition's PreemptMode is used only with "
                        + "PreemptType=preempt/partition_prio (this cluster has " + type.configName() + ")");
            }
            if (mode.within()) {
                throw new IllegalArgumentException(key + ": WITHIN applies only to PreemptType=preempt/qos");
            }
            if (mode.action() == PreemptAction.SUSPEND
                    && !(cluster.gang() && cluster.action() == PreemptAction.SUSPEND)) {
                throw new IllegalArgumentException(key + ": when a partition uses SUSPEND, the cluster-wide "
                        + "PreemptMode must include SUSPEND and GANG so that suspended jobs are resumed (cluster has "
                        + cluster + ")");
            }
        }
        return new PartitionRule(p.name(), p.priorityTier(), mode, p.graceTimeSeconds(), p.exclusiveUser(),
                p.overSubscribe().wholeNodes(), new HashSet<>(p.nodes()));
    }

    private static QosRule qos(QosConfig q, PreemptType type, PreemptMode cluster) {
        PreemptMode mode = q.preemptMode();
        if (mode != null) {
            String key = "QOS=" + q.name() + " PreemptMode=" + mode;
            if ((mode.action() != PreemptAction.OFF || mode.within()) && type != PreemptType.QOS) {
                throw new IllegalArgumentException(key + ": a QOS's PreemptMode is used only with "
                        + "PreemptType=preempt/qos (this cluster has " + type.configName() + ")");
            }
            if (mode.action() == PreemptAction.SUSPEND && !cluster.gang()) {
                throw new IllegalArgumentException(key + ": SUSPEND requires GANG in the cluster-wide PreemptMode "
                        + "(the gang scheduler resumes suspended jobs; cluster has " + cluster + ")");
            }
            if (mode.equals(PreemptMode.OFF)) {
                mode = null; // Slurm stores QOS OFF as CLUSTER: the cluster's mode
            }
        }
        return new QosRule(q.name(), q.priority(), new HashSet<>(q.preempt()), mode, q.graceTimeSeconds(),
                q.preemptExemptTimeSeconds());
    }

    private static void checkPreemptLists(Map<String, QosRule> qos) {
        Map<String, Set<String>> graph = new LinkedHashMap<>();
        for (QosRule q : qos.values()) {
            for (String p : q.preempts().stream().sorted().toList()) {
                if (!qos.containsKey(p)) {
                    throw new IllegalArgumentException("QOS=" + q.name() + " Preempt: unknown QOS " + p);
                }
                if (p.equals(q.name())) {
                    throw new IllegalArgumentException("QOS=" + q.name() + " Preempt: a QOS cannot preempt itself "
                            + "(PreemptMode=WITHIN lets jobs of one QOS preempt each other by priority)");
                }
            }
            graph.put(q.name(), q.preempts());
        }
        QosLoops.find(graph).ifPresent(loop -> {
            throw new IllegalArgumentException("QOS=" + loop.get(0) + " Preempt: a loop " + String.join(" -> ", loop)
                    + " (QOS may not preempt each other)");
        });
    }

    public boolean enabled() {
        return type != PreemptType.NONE;
    }

    /** Whether gang scheduling applies to a partition: the cluster PreemptMode has GANG, or its own PreemptMode does. */
    public boolean gangFor(String partition) {
        PreemptMode own = partition(partition).mode();
        return clusterMode.gang() || (own != null && own.gang());
    }

    /** The partition's rule; an unknown partition has tier 0, no mode of its own and no nodes. */
    public PartitionRule partition(String name) {
        PartitionRule p = partitions.get(name);
        return p != null ? p : new PartitionRule(name == null ? "" : name, 0, null, 0, false, false, Set.of());
    }

    /** The QOS's rule; an empty name is {@code normal}; an unknown QOS preempts nothing and has priority 0. */
    public QosRule qos(String name) {
        String n = name == null || name.isEmpty() ? QosConfig.NORMAL.name() : name;
        QosRule q = qos.get(n);
        return q != null ? q : QosRule.unknown(n);
    }

    /** The mode that preempts this job: its partition's (partition_prio) or QOS's (qos), else the cluster's. */
    public PreemptMode modeOf(JobRecord job) {
        PreemptMode own = switch (type) {
            case NONE -> PreemptMode.OFF;
            case PARTITION_PRIO -> partition(job.partition()).mode();
            case QOS -> qos(job.controls().qos()).mode();
        };
        return own != null ? own : clusterMode;
    }

    /** The mode in force in a partition (scontrol show partition): its own PreemptMode, else the cluster's. */
    public PreemptMode partitionMode(String partition) {
        PreemptMode own = partition(partition).mode();
        return own != null ? own : clusterMode;
    }

    /** GraceTime for this job when preempted by CANCEL or REQUEUE: its partition's or QOS's, per PreemptType. */
    public long graceOf(JobRecord job) {
        return switch (type) {
            case NONE -> 0;
            case PARTITION_PRIO -> partition(job.partition()).graceSeconds();
            case QOS -> qos(job.controls().qos()).graceSeconds();
        };
    }

    /** PreemptExemptTime for this job: its QOS's when set, else the global one (seconds, 0 = none). */
    public long exemptSecondsOf(JobRecord job) {
        long own = qos(job.controls().qos()).exemptSeconds();
        return own >= 0 ? own : exemptSeconds;
    }
}
