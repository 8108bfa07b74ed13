package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A PreemptMode value: one mechanism, optionally with GANG (run the gang scheduler, which resumes suspended jobs) or
 * WITHIN (preempt/qos: jobs of one QOS may preempt each other by job priority). Parsed once, at load, for the cluster
 * (PreemptMode=), each partition and each QOS; whether a mode suits the PreemptType is checked by scheduler-svc's
 * PreemptSettings.
 */
public record PreemptMode(PreemptAction action, boolean gang, boolean within) {

    public static final PreemptMode OFF = new PreemptMode(PreemptAction.OFF, false, false);

    /**
     * Parses OFF, CANCEL, REQUEUE or SUSPEND with GANG or WITHIN, comma-separated, any case; GANG or WITHIN alone mean
     * OFF with that flag. Refuses what Slurm's preempt_mode_num() refuses: two mechanisms, and GANG with WITHIN; and a
     * word given twice.
     *
     * @throws IllegalArgumentException saying what is wrong (without the key; callers add it)
     */
    public static PreemptMode parse(String raw) {
        List<PreemptAction> actions = new ArrayList<>();
        boolean gang = false;
        boolean within = false;
        Set<String> seen = new HashSet<>();
        for (String token : raw.split(",")) {
            String t = token.trim().toUpperCase(Locale.ROOT);
            if (!t.isEmpty() && !seen.add(t)) {
                throw new IllegalArgumentException("'" + token.trim() + "' is given twice");
            }
            switch (t) {
                case "" -> { }
                case "GANG" -> gang = true;
                case "WITHIN" -> within = true;
                case "OFF", "CANCEL", "REQUEUE", "SUSPEND" -> actions.add(PreemptAction.valueOf(t));
                default -> throw new IllegalArgumentException(
                        "'" + token.trim() + "' is not one of OFF, CANCEL, REQUEUE, SUSPEND, GANG, WITHIN");
            }
        }
        if (actions.size() > 1) {
            throw new IllegalArgumentException("only one of OFF, CANCEL, REQUEUE, SUSPEND may be given (optionally "
                    + "with GANG or WITHIN), not " + actions);
        }
        if (gang && within) {
            throw new IllegalArgumentException("GANG cannot be combined with WITHIN");
        }
        return new PreemptMode(actions.isEmpty() ? PreemptAction.OFF : actions.get(0), gang, within);
    }

    /**
     * The mode as Slurm prints it (scontrol show partition, show config): GANG or WITHIN first, then the mechanism,
     * OFF left out when a flag is there — "GANG,SUSPEND", "WITHIN,REQUEUE", "GANG", "CANCEL", "OFF". As
     * preempt_mode_string() in src/common/slurm_protocol_defs.c (Slurm 22.05).
     */
    public String slurmName() {
        String flag = gang ? "GANG" : within ? "WITHIN" : "";
        if (action == PreemptAction.OFF) {
            return flag.isEmpty() ? "OFF" : flag;
        }
        return flag.isEmpty() ? action.name() : flag + "," + action.name();
    }

    @Override
    public String toString() {
        return action + (gang ? ",GANG" : "") + (within ? ",WITHIN" : "");
    }
}
