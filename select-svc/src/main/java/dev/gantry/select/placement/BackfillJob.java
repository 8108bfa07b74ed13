package dev.gantry.select.placement;

/**
 * One pending job of a backfill pass.
 *
 * @param mayReserve whether it may hold a reservation (scheduler-svc: priority ≥ bf_min_prio_reserve); a job that may
 *                   not still starts now where it delays no reservation, and still gets an estimated start
 */
public record BackfillJob(ResourceRequest request, boolean mayReserve) {

    public long jobId() {
        return request.jobId();
    }
}
