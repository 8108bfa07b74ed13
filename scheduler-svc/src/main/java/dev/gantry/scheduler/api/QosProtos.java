package dev.gantry.scheduler.api;

import dev.gantry.api.v1.Qos;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.common.config.QosConfig;
import dev.gantry.common.config.TresLimits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Maps QOS between the config ({@link QosConfig}) and the API ({@link Qos}), and checks an edited one. */
public final class QosProtos {
    private QosProtos() {}

    private static final Set<String> MODES = Set.of("", "OFF", "CANCEL", "REQUEUE", "SUSPEND");

    /** The QOS as the API shows it: a limit not set (the config's -1) is left unset. */
    public static Qos toProto(QosConfig q) {
        Qos.Builder b = Qos.newBuilder().setName(q.name()).setPriority(q.priority()).addAllPreempt(q.preempt())
                .setPreemptMode(q.preemptMode() == null ? "" : q.preemptMode().slurmName()).setGraceTimeSeconds(q.graceTimeSeconds())
                .putAllGrpTres(q.grpTres().limits()).putAllMaxTresPerUser(q.maxTresPerUser().limits())
                .setUsageFactor(q.usageFactor()).addAllFlags(q.flags());
        if (q.preemptExemptTimeSeconds() != -1) {
            b.setPreemptExemptTimeSeconds(q.preemptExemptTimeSeconds());
        }
        if (q.maxWallSeconds() != -1) {
            b.setMaxWallSeconds(q.maxWallSeconds());
        }
        if (q.maxJobsPerUser() != -1) {
            b.setMaxJobsPerUser(q.maxJobsPerUser());
        }
        if (q.maxSubmitJobsPerUser() != -1) {
            b.setMaxSubmitJobsPerUser(q.maxSubmitJobsPerUser());
        }
        return b.build();
    }

    /**
     * An edited QOS in the config's form, or an {@link IllegalArgumentException} naming the field and the limit.
     * A limit left unset is not set (-1 in the config), as is -1. Checks what only the API form can get wrong (a limit
     * below -1, an unknown mode, a priority beyond 32 bits);
     * the name, Preempt= and UsageFactor are checked against the other QOS by {@code Accounting.withQos}.
     */
    public static QosConfig fromProto(Qos q) {
        String name = q.getName().trim();
        if (q.getPriority() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("qos.priority: " + q.getPriority() + " is outside 0.." + Integer.MAX_VALUE);
        }
        String modeText = q.getPreemptMode().trim().toUpperCase(Locale.ROOT);
        if (!MODES.contains(modeText)) {
            throw new IllegalArgumentException("qos.preempt_mode: '" + q.getPreemptMode()
                    + "' is not one of OFF, CANCEL, REQUEUE, SUSPEND");
        }
        PreemptMode mode = modeText.isEmpty() ? null : PreemptMode.parse(modeText);
        nonNegativeOrUnlimited("qos.grace_time_seconds", q.getGraceTimeSeconds(), false);
        long exempt = q.hasPreemptExemptTimeSeconds() ? q.getPreemptExemptTimeSeconds() : -1;
        long maxWall = q.hasMaxWallSeconds() ? q.getMaxWallSeconds() : -1;
        long maxJobs = q.hasMaxJobsPerUser() ? q.getMaxJobsPerUser() : -1;
        long maxSubmit = q.hasMaxSubmitJobsPerUser() ? q.getMaxSubmitJobsPerUser() : -1;
        nonNegativeOrUnlimited("qos.preempt_exempt_time_seconds", exempt, true);
        nonNegativeOrUnlimited("qos.max_wall_seconds", maxWall, true);
        nonNegativeOrUnlimited("qos.max_jobs_per_user", maxJobs, true);
        nonNegativeOrUnlimited("qos.max_submit_jobs_per_user", maxSubmit, true);
        double usageFactor = q.hasUsageFactor() ? q.getUsageFactor() : 1.0;
        return new QosConfig(name, (int) q.getPriority(), List.copyOf(q.getPreemptList()), mode,
                q.getGraceTimeSeconds(), exempt, maxWall, (int) maxJobs, (int) maxSubmit, tres("qos.grp_tres", q.getGrpTresMap()),
                tres("qos.max_tres_per_user", q.getMaxTresPerUserMap()), usageFactor, List.copyOf(q.getFlagsList()),
                "", 0);
    }

    private static void nonNegativeOrUnlimited(String field, long v, boolean unlimitedAllowed) {
        if (v < 0 && !(unlimitedAllowed && v == -1)) {
            throw new IllegalArgumentException(field + ": " + v + " must be 0 or more" + (unlimitedAllowed ? ", or -1 (unlimited)" : ""));
        }
    }

    private static TresLimits tres(String field, Map<String, Long> limits) {
        StringBuilder text = new StringBuilder();
        for (var e : new LinkedHashMap<>(limits).entrySet()) {
            text.append(text.isEmpty() ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
        }
        try {
            // memory arrives in MiB: give it the M suffix so the parser does not read another unit
            return TresLimits.parse(text.toString().replaceAll("(^|,)(mem)=(\\d+)(?=,|$)", "$1$2=$3M"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }
}
