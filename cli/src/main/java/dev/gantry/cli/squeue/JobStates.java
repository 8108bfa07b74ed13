package dev.gantry.cli.squeue;

import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Slurm's job state names (job_state_string / job_state_string_compact) and the {@code squeue -t} parser.
 * COMPLETING is a flag on a job, not a base state: a completing job prints CG / COMPLETING whatever its
 * base state. See https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES.
 */
public final class JobStates {

    /** A base state's compact and long names (job_state_string_compact, job_state_string). */
    private record Names(JobStatus state, String compact, String full) {}

    private static final List<Names> NAMES = List.of(
            new Names(JobStatus.PENDING, "PD", "PENDING"),
            new Names(JobStatus.RUNNING, "R", "RUNNING"),
            new Names(JobStatus.SUSPENDED, "S", "SUSPENDED"),
            new Names(JobStatus.COMPLETED, "CD", "COMPLETED"),
            new Names(JobStatus.CANCELLED, "CA", "CANCELLED"),
            new Names(JobStatus.FAILED, "F", "FAILED"),
            new Names(JobStatus.TIMEOUT, "TO", "TIMEOUT"),
            new Names(JobStatus.NODE_FAIL, "NF", "NODE_FAIL"),
            new Names(JobStatus.PREEMPTED, "PR", "PREEMPTED"),
            new Names(JobStatus.OUT_OF_MEMORY, "OOM", "OUT_OF_MEMORY"));
    private static final Map<JobStatus, Names> BY_STATE = new EnumMap<>(JobStatus.class);
    /** Each base state by its compact and its long name. */
    private static final Map<String, JobStatus> BY_NAME = new HashMap<>();

    static {
        for (Names n : NAMES) {
            BY_STATE.put(n.state(), n);
            BY_NAME.put(n.compact(), n.state());
            BY_NAME.put(n.full(), n.state());
        }
    }

    /**
     * Names Slurm accepts in {@code -t} that no Gantry job can be in, each compact name beside its long one: they are
     * valid and match nothing.
     */
    private static final Set<String> FOREIGN = Set.of("BF", "BOOT_FAIL", "DL", "DEADLINE", "CF", "CONFIGURING",
            "RS", "RESIZING", "RV", "REVOKED", "SE", "SPECIAL_EXIT", "RD", "RESV_DEL_HOLD", "RF", "REQUEUE_FED",
            "RH", "REQUEUE_HOLD", "RQ", "REQUEUED", "SI", "SIGNALING", "SO", "STAGE_OUT", "ST", "STOPPED");

    private JobStates() {}

    /** The compact code squeue's %t prints: PD R S CG CD CA F TO NF PR OOM. */
    public static String compact(JobInfo job) {
        if (job.completing()) {
            return "CG";
        }
        Names names = BY_STATE.get(job.state());
        return names == null ? "?" : names.compact();
    }

    /** The long name squeue's %T and scontrol's JobStatus= print. */
    public static String full(JobInfo job) {
        return job.completing() ? "COMPLETING" : full(job.state());
    }

    /** The long name of a base state. */
    public static String full(JobStatus state) {
        Names names = BY_STATE.get(state);
        return names == null ? "UNKNOWN" : names.full();
    }

    /** True for states a job leaves only by being requeued: it holds no resources and will not run. */
    public static boolean finished(JobStatus state) {
        return switch (state) {
            case PENDING, RUNNING, SUSPENDED -> false;
            default -> true;
        };
    }

    /**
     * Parses {@code squeue -t}: a comma list of short or long names, any case, or "all".
     *
     * @throws IllegalArgumentException with Slurm's two error lines joined by '\n'
     */
    public static StateFilter parse(String list) {
        if (list.trim().equalsIgnoreCase("all")) {
            return StateFilter.ALL;
        }
        Set<JobStatus> states = EnumSet.noneOf(JobStatus.class);
        boolean completing = false;
        for (String raw : list.split(",")) {
            String name = raw.trim().toUpperCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (name.equals("CG") || name.equals("COMPLETING")) {
                completing = true;
                continue;
            }
            JobStatus state = BY_NAME.get(name);
            if (state != null) {
                states.add(state);
            } else if (!FOREIGN.contains(name)) {
                throw new IllegalArgumentException("Invalid job state specified: " + raw.trim() + "\n"
                        + "Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,"
                        + "TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,"
                        + "CONFIGURING,RESIZING,REVOKED,SPECIAL_EXIT");
            }
        }
        return new StateFilter(states, completing, false);
    }

    /**
     * Which jobs {@code -t} selects.
     *
     * @param states base states selected
     * @param completing whether completing jobs (CG) are selected
     * @param all "all": every job the controller returns
     */
    public record StateFilter(Set<JobStatus> states, boolean completing, boolean all) {

        /** Every state. */
        public static final StateFilter ALL = new StateFilter(EnumSet.allOf(JobStatus.class), true, true);

        /** squeue without -t (and without -j): pending, running, suspended and completing jobs. */
        public static final StateFilter ACTIVE = new StateFilter(
                EnumSet.of(JobStatus.PENDING, JobStatus.RUNNING, JobStatus.SUSPENDED),
                true, false);

        public StateFilter {
            EnumSet<JobStatus> ordered = EnumSet.noneOf(JobStatus.class);
            ordered.addAll(states);
            states = Collections.unmodifiableSet(ordered);
        }

        /** Whether {@code job} is selected: a completing job matches CG, otherwise its base state must. */
        public boolean matches(JobInfo job) {
            if (all) {
                return true;
            }
            if (job.completing()) {
                return completing;
            }
            return states.contains(job.state());
        }
    }
}
