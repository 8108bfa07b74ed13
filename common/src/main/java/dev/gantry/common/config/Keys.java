package dev.gantry.common.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every global key Gantry understands, with Slurm's defaults. Later features add their keys here.
 * Slurm keys that Gantry accepts but has no use for (log paths, plugins it replaces) are in
 * {@link #IGNORED_SLURM_KEYS}: accepted with a warning, so an existing slurm.conf loads.
 */
public final class Keys {

    private Keys() {}

    private static final Map<String, Key<?>> BY_NAME = new LinkedHashMap<>();

    private static <T> Key<T> key(String name, java.util.function.Function<String, T> parser, T def, String doc) {
        Key<T> k = new Key<>(name, parser, def, doc);
        BY_NAME.put(name.toLowerCase(Locale.ROOT), k);
        return k;
    }

    // Identity and ports
    public static final Key<String> CLUSTER_NAME = key("ClusterName", Values::string, "gantry", "cluster name");
    /**
     * The controllers, one SlurmctldHost= line each, as Slurm lists its primary and its backups: the first is the
     * primary, the others standbys (docs/ARCHITECTURE.md, "Standby controller"). The only key that may repeat.
     */
    public static final Key<List<String>> SLURMCTLD_HOST = key("SlurmctldHost", v -> List.of(Values.string(v)), List.of("localhost"),
            "controller hosts (one line per controller: the primary, then standbys)");
    public static final Key<String> SLURM_USER = key("SlurmUser", Values::string, "root",
            "the user slurmctld runs as; like root, an administrator of every job (scontrol suspend, hold, …)");
    public static final Key<Integer> SLURMCTLD_PORT = key("SlurmctldPort", Values.intRange(0, 65535), 0,
            "scheduler-svc gRPC port; 0 = chosen by the launcher");
    public static final Key<Integer> SLURMD_PORT = key("SlurmdPort", Values.intRange(0, 65535), 0,
            "node-agent gRPC port for nodes without Port=; 0 = chosen by the launcher");
    public static final Key<Integer> SELECT_PORT = key("SelectPort", Values.intRange(0, 65535), 0,
            "Gantry: select-svc gRPC port; 0 = chosen by the launcher");
    public static final Key<Integer> GANG_PORT = key("GangPort", Values.intRange(0, 65535), 0,
            "Gantry: gang-svc gRPC port; 0 = chosen by the launcher");

    // Authentication (docs/security.md)
    public static final Key<String> AUTH_TYPE = key("AuthType", Values.oneOf("auth/local", "auth/munge"), "auth/local",
            "how local users prove who they are: auth/local (Gantry: a node's local authenticator issues a signed token "
                    + "to the uid the kernel reports on its Unix socket) or auth/munge (the site's munged)");
    public static final Key<List<String>> AUTH_INFO = key("AuthInfo", Values::list, List.of(),
            "auth/munge options: socket=PATH (the munged socket; default /run/munge/munge.socket.2)");
    public static final Key<List<String>> AUTH_ALT_TYPES = key("AuthAltTypes", Keys::authAltTypes, List.of(),
            "auth/jwt: also accept JSON web tokens (scontrol token, SLURM_JWT), for clients in other languages and "
                    + "remote users");
    public static final Key<List<String>> AUTH_ALT_PARAMETERS = key("AuthAltParameters", Values::list, List.of(),
            "auth/jwt options: jwt_key=PATH (the HS256 key file, as Slurm's jwt_hs256.key)");
    public static final Key<List<String>> PRIVATE_DATA = key("PrivateData", Keys::privateData, List.of(),
            "what users may not see of others: jobs, usage, users, accounts (as Slurm)");

    // Controller limits (docs/security.md, "Limits")
    public static final Key<SlurmctldParameters> SLURMCTLD_PARAMETERS = key("SlurmctldParameters", SlurmctldParameters::parse,
            SlurmctldParameters.DEFAULT, "the controller's request limits: rl_enable, rl_bucket_size, rl_refill_rate, "
                    + "rl_refill_period, rl_table_size (Slurm's per-user RPC rate limit; Gantry's rl_disable turns it off), "
                    + "watch_max_per_user, watch_max, watch_buffer_mb (Gantry: WatchJobs streams); any other option is "
                    + "ignored with a warning");

    // Job lifecycle
    public static final Key<Long> KILL_WAIT = key("KillWait", Values.seconds(0, 65533), 30L,
            "seconds between SIGTERM and SIGKILL when a job is killed");
    public static final Key<Long> MIN_JOB_AGE = key("MinJobAge", Values.seconds(0, 4_294_967_294L), 300L,
            "seconds a finished job stays in squeue");
    public static final Key<Long> SLURMD_TIMEOUT = key("SlurmdTimeout", Values.seconds(0, 65533), 300L,
            "seconds without a heartbeat before a node is set DOWN");
    public static final Key<Integer> FIRST_JOB_ID = key("FirstJobId", Values.intRange(1, Integer.MAX_VALUE), 1,
            "the first job id issued");
    public static final Key<Integer> MAX_ARRAY_SIZE = key("MaxArraySize", Values.intRange(0, 4_000_001), 1001,
            "array task ids must be below this; 0 disables job arrays");
    public static final Key<Integer> MAX_JOB_COUNT = key("MaxJobCount", Values.intRange(1, Integer.MAX_VALUE), 10_000_000,
            "jobs kept in memory at once");
    public static final Key<Long> OVER_TIME_LIMIT = key("OverTimeLimit", raw -> Values.isUnlimited(raw) ? -1L : Values.seconds(0, 65533).apply(raw) * 60, 0L,
            "minutes a job may run past its limit (stored in seconds)");
    public static final Key<Boolean> JOB_REQUEUE = key("JobRequeue", Values::yesNo, true, "jobs requeueable by default");
    public static final Key<Integer> TREE_WIDTH = key("TreeWidth", Values.intRange(1, 65533), 50, "launch fan-out width");
    public static final Key<String> PROLOG = key("Prolog", Values::string, "", "program run before each job");
    public static final Key<String> EPILOG = key("Epilog", Values::string, "", "program run after each job");
    public static final Key<String> PROCTRACK_TYPE = key("ProctrackType",
            Values.oneOf("proctrack/cgroup", "proctrack/pgid"), "",
            "how an agent holds a job's processes together: proctrack/cgroup (a cgroup per job; the agent fails to start "
                    + "without a writable one) or proctrack/pgid (process groups); unset, Gantry uses cgroups where "
                    + "writable, else process groups (Slurm's default is proctrack/cgroup)");

    // Selection
    public static final Key<String> SELECT_TYPE = key("SelectType",
            Values.oneOf("select/cons_tres", "select/linear", "select/cons_res"), "select/cons_tres", "selection plugin");
    public static final Key<SelectTypeParameters> SELECT_TYPE_PARAMETERS = key("SelectTypeParameters",
            SelectTypeParameters::parse, SelectTypeParameters.CR_CORE_MEMORY,
            "what cons_tres allocates and tracks: CR_CPU, CR_Core, CR_Socket, CR_Memory, CR_CPU_Memory, CR_Core_Memory, "
                    + "CR_Socket_Memory");
    public static final Key<Long> DEF_MEM_PER_CPU = key("DefMemPerCPU", Values::memoryMb, 0L, "default MiB per CPU");
    public static final Key<Long> DEF_MEM_PER_NODE = key("DefMemPerNode", Values::memoryMb, 0L, "default MiB per node");
    public static final Key<Long> MAX_MEM_PER_CPU = key("MaxMemPerCPU", Values::memoryMb, 0L, "maximum MiB per CPU");
    public static final Key<Long> MAX_MEM_PER_NODE = key("MaxMemPerNode", Values::memoryMb, 0L, "maximum MiB per node");
    public static final Key<String> TOPOLOGY_PLUGIN = key("TopologyPlugin",
            Values.oneOf("topology/flat", "topology/none", "topology/tree"), "topology/flat", "network topology");
    public static final Key<String> TOPOLOGY_FILE = key("TopologyFile", Values::string, "",
            "Gantry: the topology.conf for topology/tree, relative to the config's directory; default topology.conf there");
    public static final Key<List<String>> GRES_TYPES = key("GresTypes", Values::list, List.of(), "generic resource names");

    // Scheduling
    public static final Key<String> SCHEDULER_TYPE = key("SchedulerType",
            Values.oneOf("sched/backfill", "sched/builtin"), "sched/backfill", "scheduler plugin");
    public static final Key<SchedulerParameters> SCHEDULER_PARAMETERS = key("SchedulerParameters",
            SchedulerParameters::parse, SchedulerParameters.DEFAULT,
            "comma-separated scheduler options: sched_interval (seconds between main passes; Gantry's default 5), "
                    + "bf_window, bf_resolution, bf_max_job_test, bf_continue, bf_min_prio_reserve, bf_interval, "
                    + "bf_reserve=easy|conservative (Gantry), max_array_tasks, max_script_size (bytes, 4 MiB; at most "
                    + "128 MiB), preempt_youngest_first, "
                    + "preempt_strict_order, preempt_reorder_count; any other option is ignored with a warning");
    public static final Key<Long> SCHEDULER_TIME_SLICE = key("SchedulerTimeSlice", Values.seconds(1, 65533), 30L,
            "gang scheduling time slice, seconds");
    public static final Key<String> PRIORITY_TYPE = key("PriorityType",
            Values.oneOf("priority/multifactor", "priority/basic"), "priority/multifactor", "priority plugin");
    public static final Key<Integer> PRIORITY_WEIGHT_AGE = key("PriorityWeightAge", Values.intRange(0, Integer.MAX_VALUE), 0, "");
    public static final Key<Integer> PRIORITY_WEIGHT_FAIRSHARE = key("PriorityWeightFairshare", Values.intRange(0, Integer.MAX_VALUE), 0, "");
    public static final Key<Integer> PRIORITY_WEIGHT_JOB_SIZE = key("PriorityWeightJobSize", Values.intRange(0, Integer.MAX_VALUE), 0, "");
    public static final Key<Integer> PRIORITY_WEIGHT_PARTITION = key("PriorityWeightPartition", Values.intRange(0, Integer.MAX_VALUE), 0, "");
    public static final Key<Integer> PRIORITY_WEIGHT_QOS = key("PriorityWeightQOS", Values.intRange(0, Integer.MAX_VALUE), 0, "");
    public static final Key<TresWeights> PRIORITY_WEIGHT_TRES = key("PriorityWeightTRES", TresWeights::parse,
            TresWeights.NONE, "weight per TRES factor, e.g. CPU=1000,Mem=2000,GRES/gpu=3000 (Mem=…G: per GiB)");
    public static final Key<Long> PRIORITY_DECAY_HALF_LIFE = key("PriorityDecayHalfLife", Values::timeLimit, 7L * 86400, "");
    public static final Key<Long> PRIORITY_CALC_PERIOD = key("PriorityCalcPeriod", Values::timeLimit, 300L, "");
    public static final Key<Long> PRIORITY_MAX_AGE = key("PriorityMaxAge", Values::timeLimit, 7L * 86400, "");
    public static final Key<Boolean> PRIORITY_FAVOR_SMALL = key("PriorityFavorSmall", Values::yesNo, false, "");
    public static final Key<List<String>> PRIORITY_FLAGS = key("PriorityFlags", Keys::priorityFlags, List.of(),
            "NO_NORMAL_TRES (TRES factor = the job's count, not its share of the partition), NO_NORMAL_PART, "
                    + "NO_NORMAL_QOS, NO_NORMAL_ALL, MAX_TRES (billing = the largest weighted TRES), NO_FAIR_TREE "
                    + "(accepted: Gantry's fair share is classic or linear)");
    public static final Key<String> FAIR_SHARE_TYPE = key("FairShareType", Values.oneOf("classic", "linear"), "classic",
            "Gantry: the fair-share factor: classic 2^(-U/S), or linear max(0, 1 - U/(2S)); U effective usage, "
                    + "S normalized shares (both 1.0 with no usage and 0.5 at the share)");
    public static final Key<TresWeights> TRES_BILLING_WEIGHTS = key("TRESBillingWeights", TresWeights::parse,
            TresWeights.NONE, "billing per TRES for fair-share usage, e.g. CPU=1.0,Mem=0.25G,GRES/gpu=2.0; "
                    + "unset: CPUs only (CPU=1.0)");

    // Preemption
    public static final Key<String> PREEMPT_TYPE = key("PreemptType",
            Values.oneOf("preempt/none", "preempt/partition_prio", "preempt/qos"), "preempt/none", "preemption plugin");
    public static final Key<PreemptMode> PREEMPT_MODE = key("PreemptMode", PreemptMode::parse, PreemptMode.OFF,
            "cluster preemption mode: OFF, CANCEL, REQUEUE or SUSPEND, with GANG or WITHIN");
    public static final Key<Long> PREEMPT_EXEMPT_TIME = key("PreemptExemptTime", Values::timeLimit, 0L, "");
    public static final Key<PreemptParameters> PREEMPT_PARAMETERS = key("PreemptParameters", PreemptParameters::parse,
            PreemptParameters.DEFAULT, "youngest_first, strict_order, reorder_count=N, min_exempt_priority=N, "
                    + "send_user_signal (SchedulerParameters' preempt_* options are read too)");
    public static final Key<Long> PREEMPT_MIN_ACTIVE_TIME = key("PreemptMinActiveTime", Keys::activeTime, 0L,
            "Gantry (after Moab's minimum active time): a job started or resumed less than this long ago is not "
                    + "preempted; seconds, or a Slurm time ([days-]hours:minutes:seconds, minutes:seconds); 0 = off");
    public static final Key<Long> PREEMPT_MAX_ACTIVE_TIME = key("PreemptMaxActiveTime", Keys::activeTime, 0L,
            "Gantry (after Moab's maximum active time): a job that has run longer than this is no longer preempted; "
                    + "seconds, or a Slurm time; 0 = off");
    public static final Key<Integer> PREEMPT_MAX_VICTIMS = key("PreemptMaxVictims", Values.intRange(1, 65535), 32,
            "Gantry: a job that would preempt more jobs than this waits (Moab limits a preemptor to 32 preemptees)");

    /** Slurm keys accepted for compatibility that Gantry does not use (a warning is given). */
    public static final Set<String> IGNORED_SLURM_KEYS = Set.of(
            "slurmduser", "credtype", "mpidefault", "switchtype", "launchtype",
            "taskplugin", "statesavelocation", "slurmdspooldir", "slurmctldpidfile", "slurmdpidfile",
            "slurmctldlogfile", "slurmdlogfile", "slurmctlddebug", "slurmddebug", "returntoservice",
            "accountingstoragetype", "accountingstoragehost", "jobacctgathertype", "jobacctgatherfrequency",
            "jobcomptype", "slurmctldtimeout", "messagetimeout", "inactivelimit", "waittime", "controlmachine",
            "schedulerport", "cryptotype", "jobcredentialprivatekey", "jobcredentialpubliccertificate");

    private static final List<String> PRIORITY_FLAG_NAMES = List.of("NO_NORMAL_TRES", "NO_NORMAL_PART",
            "NO_NORMAL_QOS", "NO_NORMAL_ALL", "MAX_TRES", "NO_FAIR_TREE");

    /** PriorityFlags: the flags Gantry implements, upper case; NO_NORMAL_ALL also sets the other NO_NORMAL_*. */
    private static List<String> priorityFlags(String raw) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (String f : Values.list(raw)) {
            String flag = f.toUpperCase(Locale.ROOT);
            if (!PRIORITY_FLAG_NAMES.contains(flag)) {
                throw new IllegalArgumentException("'" + f + "' is not supported (Gantry implements "
                        + String.join(", ", PRIORITY_FLAG_NAMES) + ")");
            }
            out.add(flag);
            if (flag.equals("NO_NORMAL_ALL")) {
                out.addAll(List.of("NO_NORMAL_TRES", "NO_NORMAL_PART", "NO_NORMAL_QOS"));
            }
        }
        return List.copyOf(out);
    }

    /** Seconds as a bare number (Moab's unit), else a Slurm time string; UNLIMITED is refused (0 turns it off). */
    private static Long activeTime(String raw) {
        String v = raw.trim();
        long seconds = v.matches("\\d+") ? Values.seconds(0, Integer.MAX_VALUE).apply(v) : Values.timeLimit(v);
        if (seconds < 0) {
            throw new IllegalArgumentException("'" + raw + "' is not a time (0 turns the limit off)");
        }
        return seconds;
    }

    /** The key of that name, case-insensitively, or null. */
    static Key<?> byName(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /** All keys, in declaration order (for documentation). */
    public static Map<String, Key<?>> all() {
        return Collections.unmodifiableMap(BY_NAME);
    }

    private static List<String> authAltTypes(String raw) {
        List<String> types = Values.list(raw);
        for (String t : types) {
            if (!t.equals("auth/jwt")) {
                throw new IllegalArgumentException("'" + t + "' is not an alternative authentication type Gantry has (auth/jwt)");
            }
        }
        return types;
    }

    private static List<String> privateData(String raw) {
        List<String> kinds = Values.list(raw).stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
        for (String k : kinds) {
            if (!Set.of("jobs", "usage", "users", "accounts", "events", "nodes", "partitions", "reservations", "cloud").contains(k)) {
                throw new IllegalArgumentException("'" + k + "' is not a PrivateData kind (jobs, usage, users, accounts, events, "
                        + "nodes, partitions, reservations, cloud)");
            }
        }
        return kinds;
    }
}
