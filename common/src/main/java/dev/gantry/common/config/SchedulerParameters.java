package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * SchedulerParameters= (https://slurm.schedmd.com/slurm.conf.html#OPT_SchedulerParameters), parsed once at load. A
 * known option with a bad value is refused naming it; an option Gantry does not use is accepted with a warning naming
 * its line ({@link #ignored}), whether Slurm has it (default_queue_depth) or nobody does (a misspelt bf_windw).
 *
 * @param backfill the bf_* options of the backfill pass
 * @param schedIntervalSeconds sched_interval: seconds between main scheduling passes when nothing triggers one sooner;
 *     Gantry's default is 5 (Slurm's 60, see docs/slurm-differences.md); Slurm's -1 (no main loop) is refused
 * @param maxArrayTasks max_array_tasks: most tasks in one job array; 0 = not set (MaxArraySize applies)
 * @param maxScriptBytes max_script_size: the largest batch script a submission may carry, in bytes (UTF-8); Slurm's
 *     default of 4 MiB, at most {@link #MAX_SCRIPT_SIZE_BOUND}
 * @param preemptYoungestFirst preempt_youngest_first (PreemptParameters=youngest_first's older name)
 * @param preemptStrictOrder preempt_strict_order (PreemptParameters=strict_order's older name)
 * @param preemptReorderCount preempt_reorder_count (PreemptParameters=reorder_count's older name); -1 = not given
 * @param ignored a note for each option accepted and not used
 */
public record SchedulerParameters(BackfillSettings backfill, long schedIntervalSeconds, int maxArrayTasks,
        int maxScriptBytes, boolean preemptYoungestFirst, boolean preemptStrictOrder, int preemptReorderCount,
        List<String> ignored) implements SubOptions {

    /** Gantry's main-pass interval when sched_interval is not given (seconds). */
    public static final long DEFAULT_SCHED_INTERVAL_SECONDS = 5;

    /** Slurm's default max_script_size: 4 MiB (job_mgr.c, _test_job_desc_fields). */
    public static final int DEFAULT_MAX_SCRIPT_BYTES = 4 << 20;

    /**
     * The largest max_script_size Gantry takes: 128 MiB, where Slurm 22.05 takes up to 512 MiB (read_config.c: "cannot
     * exceed 512 MB"). A job's script travels whole in one message: to the controller, to its batch node (an internal
     * message, at most 256 MiB: common.tls.InternalServer) and to the database in the job's row, which every change of
     * the job rewrites; half the internal limit leaves room for the environment and the rest of the launch.
     */
    public static final int MAX_SCRIPT_SIZE_BOUND = 128 << 20;

    public static final SchedulerParameters DEFAULT = new SchedulerParameters(BackfillSettings.DEFAULTS,
            DEFAULT_SCHED_INTERVAL_SECONDS, 0, DEFAULT_MAX_SCRIPT_BYTES, false, false, -1, List.of());

    /** Slurm 22.05's other SchedulerParameters options (slurm.conf(5)): accepted, warned about, not used. */
    private static final Set<String> SLURM_OPTIONS = Set.of("allow_zero_lic", "assoc_limit_stop", "batch_sched_delay",
            "bb_array_stage_cnt", "bf_busy_nodes", "bf_hetjob_immediate", "bf_hetjob_prio",
            "bf_ignore_newly_avail_nodes", "bf_job_part_count_reserve", "bf_licenses", "bf_max_job_array_resv",
            "bf_max_job_assoc", "bf_max_job_part", "bf_max_job_start", "bf_max_job_user", "bf_max_job_user_part",
            "bf_max_time", "bf_min_age_reserve", "bf_node_space_size", "bf_one_resv_per_job", "bf_running_job_reserve",
            "bf_window_linear", "bf_yield_interval", "bf_yield_sleep", "build_queue_timeout",
            "correspond_after_task_cnt", "default_queue_depth", "defer", "delay_boot", "disable_hetjob_steps",
            "disable_job_shrink", "enable_hetjob_steps", "enable_user_top", "ignore_prefer_validation",
            "kill_invalid_depend", "max_depend_depth", "max_rpc_cnt", "max_sched_time", "max_switch_wait",
            "no_backup_scheduling", "no_env_cache", "nohold_on_prolog_fail", "pack_serial_at_end",
            "partition_job_depth", "reduce_completing_frag", "requeue_setup_env_fail", "salloc_wait_nodes",
            "sbatch_wait_nodes", "sched_max_job_start", "sched_min_interval", "spec_cores_first", "step_retry_count",
            "step_retry_time", "whole_hetjob");

    public SchedulerParameters {
        ignored = List.copyOf(ignored);
    }

    /**
     * @throws IllegalArgumentException naming the option: "bf_window=0: must be between 1 and 43200"
     */
    static SchedulerParameters parse(String raw) {
        BackfillSettings d = BackfillSettings.DEFAULTS;
        long window = d.windowSeconds();
        long resolution = d.resolutionSeconds();
        int maxJobTest = d.maxJobTest();
        boolean cont = d.continueAfterYield();
        long minPrio = d.minPrioReserve();
        long interval = d.intervalSeconds();
        boolean easy = d.easy();
        long schedInterval = DEFAULT_SCHED_INTERVAL_SECONDS;
        int maxArrayTasks = 0;
        int maxScriptBytes = DEFAULT_MAX_SCRIPT_BYTES;
        boolean youngest = false;
        boolean strict = false;
        int reorder = -1;
        List<String> ignored = new ArrayList<>();
        for (String text : Values.list(raw)) {
            OptionItem item = OptionItem.of(text);
            switch (item.name()) {
                case "bf_window" -> window = item.number(1, 43_200) * 60;
                case "bf_resolution" -> resolution = item.number(1, 3600);
                case "bf_max_job_test" -> maxJobTest = (int) item.number(0, 1_000_000);
                case "bf_continue" -> cont = true;
                case "bf_min_prio_reserve" -> minPrio = item.number(0, 4_294_967_294L);
                case "bf_interval" -> interval = item.number(1, 10_800);
                case "bf_reserve" -> easy = switch (String.valueOf(item.value()).toLowerCase(Locale.ROOT)) {
                    case "easy" -> true;
                    case "conservative" -> false;
                    default -> throw new IllegalArgumentException(item.text() + ": must be easy or conservative");
                };
                case "sched_interval" -> schedInterval = interval(item);
                case "max_array_tasks" -> maxArrayTasks = (int) item.number(1, 4_000_001);
                case "max_script_size" -> maxScriptBytes = scriptSize(item);
                case "preempt_youngest_first" -> youngest = true;
                case "preempt_strict_order" -> strict = true;
                case "preempt_reorder_count" -> reorder = (int) item.number(0, 64);
                default -> ignored.add(SLURM_OPTIONS.contains(item.name())
                        ? "'" + item.text() + "' is a Slurm option Gantry does not use; ignored"
                        : "'" + item.text() + "' is not an option Gantry or Slurm knows; ignored");
            }
        }
        return new SchedulerParameters(new BackfillSettings(window, resolution, maxJobTest, cont, minPrio, interval, easy),
                schedInterval, maxArrayTasks, maxScriptBytes, youngest, strict, reorder, ignored);
    }

    private static long interval(OptionItem item) {
        if ("-1".equals(item.value())) {
            throw new IllegalArgumentException(item.text() + ": Gantry always runs its main scheduling pass "
                    + "(Slurm's -1 turns it off); give seconds between 1 and 86400");
        }
        return item.number(1, 86_400);
    }

    /** max_script_size: bytes, 1 to {@link #MAX_SCRIPT_SIZE_BOUND}; Slurm's larger values are refused saying why. */
    private static int scriptSize(OptionItem item) {
        long bytes = item.number(Long.MIN_VALUE, Long.MAX_VALUE);
        if (bytes < 1 || bytes > MAX_SCRIPT_SIZE_BOUND) {
            throw new IllegalArgumentException(item.text() + ": must be between 1 and " + MAX_SCRIPT_SIZE_BOUND
                    + " bytes (128 MiB: Gantry's bound, where Slurm's is 512 MiB; docs/slurm-differences.md)");
        }
        return (int) bytes;
    }

    /** The most tasks one job array may have: max_array_tasks when given, else MaxArraySize. */
    public int maxArrayTasks(int maxArraySize) {
        return maxArrayTasks > 0 ? maxArrayTasks : maxArraySize;
    }
}
