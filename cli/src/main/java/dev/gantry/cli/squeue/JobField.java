package dev.gantry.cli.squeue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.text.FormatItems;
import dev.gantry.cli.text.SlurmClock;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Function;

/**
 * The squeue {@code -o} field codes Gantry supports, with Slurm's headers and print rules
 * (src/squeue/print.c). Each value is computed from a {@link JobView}; {@code cut} tells whether a
 * right-justified value longer than its width is truncated (Slurm does not cut node lists and durations).
 */
public enum JobField implements FormatItems.Type {
    ACCOUNT('a', "ACCOUNT", v -> orNull(v.job().getAccount())),
    JOB_ID_ONLY('A', "JOBID", v -> Long.toString(v.job().getJobId())),
    BATCH_HOST('B', "EXEC_HOST", v -> v.job().getBatchHost().isEmpty() ? "n/a" : v.job().getBatchHost()),
    CPUS('C', "CPUS", v -> Integer.toString(v.job().getNumCpus())),
    NODES('D', "NODES", v -> Integer.toString(v.job().getNumNodes())),
    END_TIME('e', "END_TIME", JobField::endTime),
    DEPENDENCY('E', "DEPENDENCY", v -> orNull(v.job().getDependency())),
    ARRAY_JOB_ID('F', "ARRAY_JOB_ID", v -> Long.toString(v.job().getArrayJobId() != 0 ? v.job().getArrayJobId()
            : v.job().getJobId())),
    GROUP_ID('G', "GROUP", v -> Integer.toUnsignedString(v.job().getSpec().getGid())),
    JOB_ID('i', "JOBID", JobView::displayId),
    NAME('j', "NAME", v -> v.job().getSpec().getName()),
    ARRAY_TASK_ID('K', "ARRAY_TASK_ID", JobView::taskIds),
    TIME_LIMIT('l', "TIME_LIMIT", v -> limit(v.job().getTimeLimitSeconds()), false),
    TIME_LEFT('L', "TIME_LEFT", JobField::timeLeft, false),
    MIN_MEMORY('m', "MIN_MEMORY", v -> memory(v.job())),
    TIME_USED('M', "TIME", v -> SlurmClock.squeueDuration(v.secondsUsed()), false),
    NODE_LIST('N', "NODELIST", JobView::nodeList, false, false),
    PRIORITY('p', "PRIORITY", v -> String.format(Locale.ROOT, "%16.14f", v.job().getPriority() / 4294967295.0)),
    PARTITION('P', "PARTITION", v -> v.job().getPartition()),
    PRIORITY_LONG('Q', "PRIORITY", v -> Long.toUnsignedString(v.job().getPriority())),
    QOS('q', "QOS", v -> orNull(v.job().getQos())),
    REASON('r', "REASON", JobView::reason),
    REASON_LIST('R', "NODELIST(REASON)", JobField::reasonList, false, false),
    START_TIME('S', "START_TIME", v -> SlurmClock.squeueTime(SlurmClock.instant(v.job().getStartTime()), v.zone())),
    STATE_COMPACT('t', "ST", v -> JobStates.compact(v.job())),
    STATE('T', "STATE", v -> JobStates.full(v.job())),
    USER_ID('U', "USER", v -> Integer.toUnsignedString(v.job().getSpec().getUid())),
    USER('u', "USER", v -> v.job().getSpec().getUser()),
    SUBMIT_TIME('V', "SUBMIT_TIME", v -> SlurmClock.squeueTime(SlurmClock.instant(v.job().getSubmitTime()), v.zone())),
    NICE('y', "NICE", v -> Integer.toString(v.job().getNice())),
    SCHED_NODES('Y', "SCHEDNODES", JobField::schedNodes),
    WORK_DIR('Z', "WORK_DIR", v -> v.job().getSpec().getWorkDir());

    private final char code;
    private final String header;
    private final Function<JobView, String> value;
    private final boolean cutValue;
    private final boolean cutHeader;

    JobField(char code, String header, Function<JobView, String> value) {
        this(code, header, value, true, true);
    }

    JobField(char code, String header, Function<JobView, String> value, boolean cutValue) {
        this(code, header, value, cutValue, true);
    }

    JobField(char code, String header, Function<JobView, String> value, boolean cutValue, boolean cutHeader) {
        this.code = code;
        this.header = header;
        this.value = value;
        this.cutValue = cutValue;
        this.cutHeader = cutHeader;
    }

    @Override
    public char code() {
        return code;
    }

    public String header() {
        return header;
    }

    /** The text this field prints for a job. */
    public String value(JobView view) {
        return value.apply(view);
    }

    /** Whether Slurm truncates this field's header (false only for the node-list fields). */
    public boolean cutHeader() {
        return cutHeader;
    }

    /** Reason-or-value fields print "(Reason)" for pending, timed-out and failed jobs; others the node list. */
    static boolean showsReason(Job job) {
        if (job.getCompleting()) {
            return false;
        }
        return job.getState() == JobState.JOB_STATE_PENDING
                || job.getState() == JobState.JOB_STATE_TIMEOUT
                || job.getState() == JobState.JOB_STATE_FAILED;
    }

    /**
     * Whether this field's value for {@code job} is cut: the reason half of %R is, the node half is not;
     * the words UNLIMITED and NOT_SET of %l and %L are, the durations are not.
     */
    public boolean cutValue(Job job) {
        return switch (this) {
            case REASON_LIST -> showsReason(job);
            case TIME_LIMIT, TIME_LEFT -> job.getTimeLimitSeconds() <= 0;
            default -> cutValue;
        };
    }

    private static String reasonList(JobView v) {
        return showsReason(v.job()) ? "(" + v.reason() + ")" : v.nodeList();
    }

    private static String limit(long seconds) {
        if (seconds < 0) {
            return "UNLIMITED";
        }
        return seconds == 0 ? "NOT_SET" : SlurmClock.squeueDuration(seconds);
    }

    private static String timeLeft(JobView v) {
        long limit = v.job().getTimeLimitSeconds();
        if (limit < 0) {
            return "UNLIMITED";
        }
        if (limit == 0) {
            return "NOT_SET";
        }
        return SlurmClock.squeueDuration(limit - v.secondsUsed());
    }

    private static String endTime(JobView v) {
        Instant end = SlurmClock.instant(v.job().getEndTime());
        if (v.job().getTimeLimitSeconds() < 0 && end != null && end.isAfter(v.now())) {
            return "NONE";
        }
        return SlurmClock.squeueTime(end, v.zone());
    }

    private static String orNull(String value) {
        return value.isEmpty() ? "(null)" : value;
    }

    /** %Y: the nodes a pending job is expected to start on, "(null)" when unknown or not pending. */
    private static String schedNodes(JobView v) {
        Job job = v.job();
        if (job.getState() != JobState.JOB_STATE_PENDING) {
            return "(null)";
        }
        if (!job.getSchedNodeList().isEmpty()) {
            return job.getSchedNodeList();
        }
        return job.getSchedNodesCount() == 0 ? "(null)"
                : dev.gantry.common.hostlist.Hostlist.compress(job.getSchedNodesList());
    }

    private static String memory(Job job) {
        long mb = job.getMemPerNodeMb();
        return mb <= 0 ? "0" : dev.gantry.cli.text.SlurmSizes.mebibytes(mb);
    }
}
