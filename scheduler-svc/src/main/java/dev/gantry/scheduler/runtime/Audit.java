package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of privileged actions: one INFO line each on the logger {@code dev.gantry.audit}, starting
 * "audit: ", with when (UTC), who (name and uid) and what — an operator or administrator acting on another user's job
 * (cancel, signal, hold, release, requeue, update, top, suspend, resume, reading its script), QOS edits, tokens,
 * submissions on another's behalf — and the refusals of such actions (Slurm logs these as "Security violation").
 * Thread-safe.
 */
public final class Audit {

    private static final Logger LOG = LoggerFactory.getLogger("dev.gantry.audit");

    private Audit() {}

    /** "audit: 2026-11-27T12:00:00Z root (uid 0) cancelled job 12 of alice". */
    public static void record(Instant at, Requester who, String what) {
        LOG.info("audit: {} {} {}", at, who.describe(), what);
    }

    /** A privileged action of {@code who} refused: "audit: … bob (uid 1001) refused: edit QOS normal". */
    public static void refused(Instant at, Requester who, String what) {
        LOG.info("audit: {} {} refused: {}", at, who.describe(), what);
    }

    /** {@code who} did {@code verb} to job {@code j}; logged only when the job is another user's. */
    static void onJob(Instant at, Requester who, String verb, JobRecord j) {
        if (!who.is(j.user())) {
            record(at, who, verb + " job " + j.id() + " of " + j.user());
        }
    }
}
