package dev.gantry.scheduler.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the user submitted (sbatch's options, script and environment), as the cores read it: the API's JobSpec field for
 * field, without protobuf. A field the API marks {@code optional} is a boxed value here, null when not given, so a core
 * can tell "not requested" from any value (Slurm's defaults depend on it). Strings are never null ("" = not given).
 * Immutable; {@link #toBuilder()} makes a changed copy. {@code scheduler.api.JobRequests} maps it to and from the API.
 *
 * @param name           -J; "" = the default name
 * @param script         the batch script's full text
 * @param argv           arguments passed to the script
 * @param workDir        -D: an absolute path
 * @param stdoutPath     -o pattern; "" = slurm-%j.out
 * @param stderrPath     -e pattern; "" = the same file as stdout
 * @param partitions     -p, in the user's order; empty = the default partition
 * @param minNodes       -N minimum, or null
 * @param maxNodes       -N maximum, or null
 * @param ntasks         -n, or null
 * @param cpusPerTask    -c, or null
 * @param memPerNodeMb   --mem, MiB per node, or null (0 = all of a node's memory)
 * @param timeLimitSeconds -t, or null (-1 = UNLIMITED, 0 = no limit)
 * @param environment    the submitting environment, in the order it was submitted
 * @param user           whom the job runs as
 * @param uid            that user's uid (the API's uint32, same bits)
 * @param gid            the job's group (the API's uint32, same bits)
 * @param submitDir      SLURM_SUBMIT_DIR; "" = unknown
 * @param submitHost     SLURM_SUBMIT_HOST; "" = unknown
 * @param ntasksPerNode  --ntasks-per-node, or null
 * @param memPerCpuMb    --mem-per-cpu, MiB, or null
 * @param gres           --gres entries as given ("gpu:a100:2")
 * @param exclusive      --exclusive
 * @param constraint     -C as given
 * @param nodelist       -w as given (a host list)
 * @param exclude        -x as given (a host list)
 * @param contiguous     --contiguous
 * @param oversubscribe  -s
 * @param account        -A; "" = the user's default
 * @param qos            -q; "" = the account's default
 * @param nice           --nice, or null
 * @param hold           -H
 * @param beginTime      -b, resolved by the client; null = not given
 * @param dependency     -d as given
 * @param array          -a as given ("0-99%10"); "" = not an array
 * @param requeue        --requeue / --no-requeue, or null (JobRequeue decides)
 * @param exclusiveUser  --exclusive=user
 */
public record JobRequest(
        String name,
        String script,
        List<String> argv,
        String workDir,
        String stdoutPath,
        String stderrPath,
        List<String> partitions,
        Integer minNodes,
        Integer maxNodes,
        Integer ntasks,
        Integer cpusPerTask,
        Long memPerNodeMb,
        Long timeLimitSeconds,
        Map<String, String> environment,
        String user,
        int uid,
        int gid,
        String submitDir,
        String submitHost,
        Integer ntasksPerNode,
        Long memPerCpuMb,
        List<String> gres,
        boolean exclusive,
        String constraint,
        String nodelist,
        String exclude,
        boolean contiguous,
        boolean oversubscribe,
        String account,
        String qos,
        Integer nice,
        boolean hold,
        Instant beginTime,
        String dependency,
        String array,
        Boolean requeue,
        boolean exclusiveUser) {

    /** Nothing given: every string empty, every optional field unset. */
    public static final JobRequest EMPTY = builder().build();

    /** Requests read back recently (see {@link #shared}). */
    private static final Interner<JobRequest, JobRequest> READ_BACK = new Interner<>(1024);

    /**
     * An equal request read back recently, else this one: every task of an array is stored with its own copy of the
     * array's request, and reading the jobs back must not make a hundred thousand copies of one request in memory.
     */
    public JobRequest shared() {
        return READ_BACK.intern(this, r -> r);
    }

    public JobRequest {
        name = text(name);
        script = shared(text(script));
        argv = argv == null ? List.of() : List.copyOf(argv);
        workDir = shared(text(workDir));
        stdoutPath = shared(text(stdoutPath));
        stderrPath = shared(text(stderrPath));
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
        // the submitted order is kept, so the request maps back to the same API message (and the same stored bytes)
        environment = environment == null || environment.isEmpty() ? Map.of()
                : environment instanceof Environment kept ? kept : Environment.of(environment);
        user = shared(text(user));
        submitDir = shared(text(submitDir));
        submitHost = shared(text(submitHost));
        gres = gres == null ? List.of() : List.copyOf(gres);
        constraint = text(constraint);
        nodelist = text(nodelist);
        exclude = text(exclude);
        account = text(account);
        qos = text(qos);
        dependency = text(dependency);
        array = text(array);
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    /** Texts of recent submissions: one submitter's jobs mostly have the same script, directories and paths. */
    private static final Interner<String, String> TEXTS = new Interner<>(4096);

    private static String shared(String s) {
        return s.isEmpty() ? "" : TEXTS.intern(s, t -> t);
    }

    /** Whether the user gave a node count (-N), minimum or maximum. */
    public boolean namesNodeCount() {
        return minNodes != null || maxNodes != null;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Makes a request field by field; unset fields are empty or null, as in {@link #EMPTY}. */
    public static final class Builder {
        private String name = "";
        private String script = "";
        private List<String> argv = new ArrayList<>();
        private String workDir = "";
        private String stdoutPath = "";
        private String stderrPath = "";
        private List<String> partitions = new ArrayList<>();
        private Integer minNodes;
        private Integer maxNodes;
        private Integer ntasks;
        private Integer cpusPerTask;
        private Long memPerNodeMb;
        private Long timeLimitSeconds;
        private Map<String, String> environment = new LinkedHashMap<>();
        private String user = "";
        private int uid;
        private int gid;
        private String submitDir = "";
        private String submitHost = "";
        private Integer ntasksPerNode;
        private Long memPerCpuMb;
        private List<String> gres = new ArrayList<>();
        private boolean exclusive;
        private String constraint = "";
        private String nodelist = "";
        private String exclude = "";
        private boolean contiguous;
        private boolean oversubscribe;
        private String account = "";
        private String qos = "";
        private Integer nice;
        private boolean hold;
        private Instant beginTime;
        private String dependency = "";
        private String array = "";
        private Boolean requeue;
        private boolean exclusiveUser;

        private Builder() {}

        private Builder(JobRequest r) {
            name = r.name;
            script = r.script;
            argv = new ArrayList<>(r.argv);
            workDir = r.workDir;
            stdoutPath = r.stdoutPath;
            stderrPath = r.stderrPath;
            partitions = new ArrayList<>(r.partitions);
            minNodes = r.minNodes;
            maxNodes = r.maxNodes;
            ntasks = r.ntasks;
            cpusPerTask = r.cpusPerTask;
            memPerNodeMb = r.memPerNodeMb;
            timeLimitSeconds = r.timeLimitSeconds;
            environment = r.environment; // immutable: copied only if the builder adds to it
            user = r.user;
            uid = r.uid;
            gid = r.gid;
            submitDir = r.submitDir;
            submitHost = r.submitHost;
            ntasksPerNode = r.ntasksPerNode;
            memPerCpuMb = r.memPerCpuMb;
            gres = new ArrayList<>(r.gres);
            exclusive = r.exclusive;
            constraint = r.constraint;
            nodelist = r.nodelist;
            exclude = r.exclude;
            contiguous = r.contiguous;
            oversubscribe = r.oversubscribe;
            account = r.account;
            qos = r.qos;
            nice = r.nice;
            hold = r.hold;
            beginTime = r.beginTime;
            dependency = r.dependency;
            array = r.array;
            requeue = r.requeue;
            exclusiveUser = r.exclusiveUser;
        }

        public Builder name(String v) { name = v; return this; }
        public Builder script(String v) { script = v; return this; }
        public Builder argv(List<String> v) { argv = new ArrayList<>(v); return this; }
        public Builder addArgv(String v) { argv.add(v); return this; }
        public Builder workDir(String v) { workDir = v; return this; }
        public Builder stdoutPath(String v) { stdoutPath = v; return this; }
        public Builder stderrPath(String v) { stderrPath = v; return this; }
        public Builder partitions(List<String> v) { partitions = new ArrayList<>(v); return this; }
        public Builder addPartition(String v) { partitions.add(v); return this; }
        public Builder minNodes(Integer v) { minNodes = v; return this; }
        public Builder maxNodes(Integer v) { maxNodes = v; return this; }
        public Builder ntasks(Integer v) { ntasks = v; return this; }
        public Builder cpusPerTask(Integer v) { cpusPerTask = v; return this; }
        public Builder memPerNodeMb(Long v) { memPerNodeMb = v; return this; }
        public Builder timeLimitSeconds(Long v) { timeLimitSeconds = v; return this; }
        public Builder environment(Map<String, String> v) { environment = new LinkedHashMap<>(v); return this; }

        public Builder putEnvironment(String key, String value) {
            if (environment instanceof Environment || !(environment instanceof LinkedHashMap)) {
                environment = new LinkedHashMap<>(environment);
            }
            environment.put(key, value);
            return this;
        }
        public Builder user(String v) { user = v; return this; }
        public Builder uid(int v) { uid = v; return this; }
        public Builder gid(int v) { gid = v; return this; }
        public Builder submitDir(String v) { submitDir = v; return this; }
        public Builder submitHost(String v) { submitHost = v; return this; }
        public Builder ntasksPerNode(Integer v) { ntasksPerNode = v; return this; }
        public Builder memPerCpuMb(Long v) { memPerCpuMb = v; return this; }
        public Builder gres(List<String> v) { gres = new ArrayList<>(v); return this; }
        public Builder addGres(String v) { gres.add(v); return this; }
        public Builder exclusive(boolean v) { exclusive = v; return this; }
        public Builder constraint(String v) { constraint = v; return this; }
        public Builder nodelist(String v) { nodelist = v; return this; }
        public Builder exclude(String v) { exclude = v; return this; }
        public Builder contiguous(boolean v) { contiguous = v; return this; }
        public Builder oversubscribe(boolean v) { oversubscribe = v; return this; }
        public Builder account(String v) { account = v; return this; }
        public Builder qos(String v) { qos = v; return this; }
        public Builder nice(Integer v) { nice = v; return this; }
        public Builder hold(boolean v) { hold = v; return this; }
        public Builder beginTime(Instant v) { beginTime = v; return this; }
        public Builder dependency(String v) { dependency = v; return this; }
        public Builder array(String v) { array = v; return this; }
        public Builder requeue(Boolean v) { requeue = v; return this; }
        public Builder exclusiveUser(boolean v) { exclusiveUser = v; return this; }

        public JobRequest build() {
            return new JobRequest(name, script, argv, workDir, stdoutPath, stderrPath, partitions, minNodes, maxNodes,
                    ntasks, cpusPerTask, memPerNodeMb, timeLimitSeconds, environment, user, uid, gid, submitDir,
                    submitHost, ntasksPerNode, memPerCpuMb, gres, exclusive, constraint, nodelist, exclude, contiguous,
                    oversubscribe, account, qos, nice, hold, beginTime, dependency, array, requeue, exclusiveUser);
        }
    }

    /**
     * A request's environment: immutable, in the submitted order. A request made from another one's builder keeps the
     * same instance instead of copying it again (a submission goes through several builders: the API mapping, the
     * caller's identity, the resolved terms).
     */
    private static final class Environment extends java.util.AbstractMap<String, String> {
        /**
         * Environments of recent submissions, by their variables in order: one submitter's jobs mostly have the same
         * (see {@link Interner}); the order is part of the key, as it is kept.
         */
        private static final Interner<java.util.List<Entry<String, String>>, Environment> RECENT = new Interner<>(1024);

        private final Map<String, String> entries;

        private Environment(Map<String, String> from) {
            this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(from));
        }

        static Environment of(Map<String, String> from) {
            java.util.List<Entry<String, String>> key = new java.util.ArrayList<>(from.size());
            from.forEach((k, v) -> key.add(Map.entry(k, v)));
            return RECENT.intern(java.util.List.copyOf(key), k -> new Environment(from));
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return entries.entrySet();
        }

        @Override
        public String get(Object key) {
            return entries.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public int size() {
            return entries.size();
        }
    }
}
