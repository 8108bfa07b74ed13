package dev.gantry.cli.squeue;

import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import dev.gantry.cli.text.FormatItems;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.cli.text.SlurmSizes;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Function;

/**
 * The squeue {@code -o} field codes Gantry supports, with Slurm's headers and print rules
 * (src/squeue/print.c). Each value is computed from a {@link JobView}; {@code cut} tells whether a
 * right-justified value longer than its width is truncated (Slurm does not cut node lists and durations).
 */
public enum JobField implements FormatItems.Type {
    ACCOUNT('a', "ACCOUNT", v -> orNull(v.job().scheduling().account())),
    JOB_ID_ONLY('A', "JOBID", v -> Long.toString(v.job().jobId())),
    BATCH_HOST('B', "EXEC_HOST", v -> v.job().resources().batchHost().isEmpty() ? "n/a"
            : v.job().resources().batchHost()),
    CPUS('C', "CPUS", v -> Integer.toString(v.job().resources().numCpus())),
    NODES('D', "NODES", v -> Integer.toString(v.job().resources().numNodes())),
    END_TIME('e', "END_TIME", JobField::endTime),
    DEPENDENCY('E', "DEPENDENCY", v -> orNull(v.job().scheduling().dependency())),
    ARRAY_JOB_ID('F', "ARRAY_JOB_ID", v -> Long.toString(v.job().array().arrayJobId() != 0
            ? v.job().array().arrayJobId() : v.job().jobId())),
    GROUP_ID('G', "GROUP", v -> Integer.toUnsignedString(v.job().gid())),
    JOB_ID('i', "JOBID", JobView::displayId),
    NAME('j', "NAME", v -> v.job().name()),
    ARRAY_TASK_ID('K', "ARRAY_TASK_ID", JobView::taskIds),
    TIME_LIMIT('l', "TIME_LIMIT", v -> limit(v.job().times().timeLimitSeconds()), false),
    TIME_LEFT('L', "TIME_LEFT", JobField::timeLeft, false),
    MIN_MEMORY('m', "MIN_MEMORY", v -> memory(v.job())),
    TIME_USED('M', "TIME", v -> SlurmClock.squeueDuration(v.secondsUsed()), false),
    NODE_LIST('N', "NODELIST", JobView::nodeList, false, false),
    PRIORITY('p', "PRIORITY", v -> String.format(Locale.ROOT, "%16.14f",
            v.job().scheduling().priority() / 4294967295.0)),
    PARTITION('P', "PARTITION", v -> v.job().partition()),
    PRIORITY_LONG('Q', "PRIORITY", v -> Long.toUnsignedString(v.job().scheduling().priority())),
    QOS('q', "QOS", v -> orNull(v.job().scheduling().qos())),
    REASON('r', "REASON", JobView::reason),
    REASON_LIST('R', "NODELIST(REASON)", JobField::reasonList, false, false),
    START_TIME('S', "START_TIME", v -> SlurmClock.squeueTime(v.job().times().start(), v.zone())),
    STATE_COMPACT('t', "ST", v -> JobStates.compact(v.job())),
    STATE('T', "STATE", v -> JobStates.full(v.job())),
    USER_ID('U', "USER", v -> Integer.toUnsignedString(v.job().uid())),
    USER('u', "USER", v -> v.job().user()),
    SUBMIT_TIME('V', "SUBMIT_TIME", v -> SlurmClock.squeueTime(v.job().times().submit(), v.zone())),
    NICE('y', "NICE", v -> Integer.toString(v.job().scheduling().nice())),
    SCHED_NODES('Y', "SCHEDNODES", JobField::schedNodes),
    WORK_DIR('Z', "WORK_DIR", v -> v.job().submitted().workDir());

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
    static boolean showsReason(JobInfo job) {
        if (job.completing()) {
            return false;
        }
        return job.state() == JobStatus.PENDING || job.state() == JobStatus.TIMEOUT || job.state() == JobStatus.FAILED;
    }

    /**
     * Whether this field's value for {@code job} is cut: the reason half of %R is, the node half is not;
     * the words UNLIMITED and NOT_SET of %l and %L are, the durations are not.
     */
    public boolean cutValue(JobInfo job) {
        return switch (this) {
            case REASON_LIST -> showsReason(job);
            case TIME_LIMIT, TIME_LEFT -> job.times().timeLimitSeconds() <= 0;
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
        long limit = v.job().times().timeLimitSeconds();
        if (limit < 0) {
            return "UNLIMITED";
        }
        if (limit == 0) {
            return "NOT_SET";
        }
        return SlurmClock.squeueDuration(limit - v.secondsUsed());
    }

    private static String endTime(JobView v) {
        Instant end = v.job().times().end();
        if (v.job().times().timeLimitSeconds() < 0 && end != null && end.isAfter(v.now())) {
            return "NONE";
        }
        return SlurmClock.squeueTime(end, v.zone());
    }

    private static String orNull(String value) {
        return value.isEmpty() ? "(null)" : value;
    }

    /** %Y: the nodes a pending job is expected to start on, "(null)" when unknown or not pending. */
    private static String schedNodes(JobView v) {
        if (!v.job().pending()) {
            return "(null)";
        }
        String nodes = v.job().scheduling().schedHostList();
        return nodes.isEmpty() ? "(null)" : nodes;
    }

    private static String memory(JobInfo job) {
        long mb = job.resources().memPerNodeMb();
        return mb <= 0 ? "0" : SlurmSizes.mebibytes(mb);
    }
}
