package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
/** What a backfill pass says about one job. */
public sealed interface BackfillAnswer {

    long jobId();

    /** Start now on these resources (first node runs the batch script): it delays no held reservation. */
    record StartNow(Placement.Start start) implements BackfillAnswer {
        public long jobId() {
            return start.jobId();
        }
    }

    /** Cannot start now; holds {@code reservation}'s nodes from its start: later jobs of the pass were planned around it. */
    record Reserved(long jobId, Placement.Reservation reservation) implements BackfillAnswer {}

    /** Cannot start now; expected at {@code reservation}'s start on its nodes, but holds nothing. */
    record Estimated(long jobId, Placement.Reservation reservation, NotHolding why) implements BackfillAnswer {}

    /** Cannot start within the window (or ever, as far as the profile knows), for {@code reason}. */
    record NoStart(long jobId, PendingReason reason) implements BackfillAnswer {}

    /** Past bf_max_job_test: not looked at. */
    record NotTested(long jobId) implements BackfillAnswer {}

    /** Why an estimated job holds nothing. */
    enum NotHolding {
        /** EASY: an earlier job of the partition holds the reservation. */
        EASY,
        /** The job may not reserve (below bf_min_prio_reserve). */
        NO_RESERVE
    }
}
