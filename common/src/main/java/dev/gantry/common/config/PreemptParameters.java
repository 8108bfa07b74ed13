package dev.gantry.common.config;

/**
 * PreemptParameters= (slurm.conf(5)), parsed once at load; also read from SchedulerParameters under their older
 * preempt_ names (preempt_youngest_first, preempt_strict_order, preempt_reorder_count=N), as Slurm does. Slurm 22.05
 * knows only the SchedulerParameters names (src/slurmctld/preempt.c, cons_common.c); PreemptParameters came with
 * 23.02. An item Gantry does not know is refused (file:line: PreemptParameters: …), as before this was typed.
 *
 * @param youngestFirst order victims by start time, latest first, instead of by priority and size (see VictimOrder)
 * @param strictOrder select-svc's reorder step keeps the priority order (moves only the last needed job first)
 * @param reorderCount how many times select-svc may reorder the candidates to preempt fewer jobs (Slurm: default 1)
 * @param minExemptPriority jobs with a priority above this are never preempted; -1 = not set
 * @param sendUserSignal at selection, send the job's --signal instead of SIGTERM (when it has one)
 */
public record PreemptParameters(boolean youngestFirst, boolean strictOrder, int reorderCount, long minExemptPriority,
        boolean sendUserSignal) {

    public static final PreemptParameters DEFAULT = new PreemptParameters(false, false, 1, -1, false);

    /** {@link #reorderCount} of a value just parsed from PreemptParameters= that did not give reorder_count. */
    static final int REORDER_NOT_GIVEN = -1;

    private static final String KNOWN = "youngest_first, strict_order, reorder_count=N, min_exempt_priority=N, "
            + "send_user_signal";

    /**
     * The PreemptParameters= items alone; reorder_count not given is {@link #REORDER_NOT_GIVEN} until
     * {@link #after(SchedulerParameters)} resolves it.
     *
     * @throws IllegalArgumentException naming the item
     */
    static PreemptParameters parse(String raw) {
        boolean youngest = false;
        boolean strict = false;
        int reorder = REORDER_NOT_GIVEN;
        long minExempt = -1;
        boolean signal = false;
        for (String text : Values.list(raw)) {
            OptionItem item = OptionItem.of(text);
            switch (item.name()) {
                case "youngest_first" -> youngest = true;
                case "strict_order" -> strict = true;
                case "send_user_signal" -> signal = true;
                case "reorder_count" -> reorder = (int) item.number(0, 64);
                case "min_exempt_priority" -> minExempt = item.number(0, 4_294_967_294L);
                default -> throw new IllegalArgumentException("'" + item.text() + "' is not one of " + KNOWN);
            }
        }
        return new PreemptParameters(youngest, strict, reorder, minExempt, signal);
    }

    /**
     * These PreemptParameters with SchedulerParameters' older preempt_ options under them: a flag set in either is set;
     * PreemptParameters' reorder_count wins over preempt_reorder_count; neither given is Slurm's 1.
     */
    PreemptParameters after(SchedulerParameters older) {
        int reorder = reorderCount != REORDER_NOT_GIVEN ? reorderCount
                : older.preemptReorderCount() >= 0 ? older.preemptReorderCount() : DEFAULT.reorderCount;
        return new PreemptParameters(youngestFirst || older.preemptYoungestFirst(),
                strictOrder || older.preemptStrictOrder(), reorder, minExemptPriority, sendUserSignal);
    }
}
