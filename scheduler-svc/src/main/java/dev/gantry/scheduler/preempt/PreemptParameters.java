package dev.gantry.scheduler.preempt;

import java.util.List;
import java.util.Locale;

/**
 * PreemptParameters (slurm.conf(5)), also read from SchedulerParameters under their older preempt_ names
 * (preempt_youngest_first, preempt_strict_order, preempt_reorder_count=N), as Slurm does. Slurm 22.05 knows only the
 * SchedulerParameters names (src/slurmctld/preempt.c, cons_common.c); PreemptParameters came with 23.02.
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

    private static final String KNOWN = "youngest_first, strict_order, reorder_count=N, min_exempt_priority=N, "
            + "send_user_signal";

    /**
     * @param preemptParameters the PreemptParameters items
     * @param schedulerParameters the SchedulerParameters items (only preempt_* ones are read)
     * @throws IllegalArgumentException naming the key and the item
     */
    public static PreemptParameters parse(List<String> preemptParameters, List<String> schedulerParameters) {
        boolean youngest = false;
        boolean strict = false;
        int reorder = 1;
        long minExempt = -1;
        boolean signal = false;
        for (String item : schedulerParameters) {
            String i = item.trim().toLowerCase(Locale.ROOT);
            if (i.equals("preempt_youngest_first")) {
                youngest = true;
            } else if (i.equals("preempt_strict_order")) {
                strict = true;
            } else if (i.startsWith("preempt_reorder_count=")) {
                reorder = (int) number("SchedulerParameters", item, 0, 64);
            }
        }
        for (String item : preemptParameters) {
            String i = item.trim().toLowerCase(Locale.ROOT);
            if (i.equals("youngest_first")) {
                youngest = true;
            } else if (i.equals("strict_order")) {
                strict = true;
            } else if (i.equals("send_user_signal")) {
                signal = true;
            } else if (i.startsWith("reorder_count=")) {
                reorder = (int) number("PreemptParameters", item, 0, 64);
            } else if (i.startsWith("min_exempt_priority=")) {
                minExempt = number("PreemptParameters", item, 0, 4_294_967_294L);
            } else {
                throw new IllegalArgumentException("PreemptParameters: '" + item.trim() + "' is not one of " + KNOWN);
            }
        }
        return new PreemptParameters(youngest, strict, reorder, minExempt, signal);
    }

    private static long number(String key, String item, long min, long max) {
        String value = item.substring(item.indexOf('=') + 1).trim();
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": " + item.trim() + ": '" + value + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(key + ": " + item.trim() + ": must be between " + min + " and " + max);
        }
        return v;
    }
}
