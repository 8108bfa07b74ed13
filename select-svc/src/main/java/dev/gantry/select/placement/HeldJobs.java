package dev.gantry.select.placement;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link Ledger}'s jobs by id, copy-on-write: a {@link #fork} shares the map with its origin until either writes.
 * Not thread-safe, except that forking a shared instance no one writes (a base ledger's) writes nothing.
 */
final class HeldJobs {

    private Map<Long, HeldJob> jobs;
    /** The map is (or may be) shared with a fork or an origin: copy before writing. */
    private boolean shared;

    HeldJobs() {
        this(new LinkedHashMap<>(), false);
    }

    private HeldJobs(Map<Long, HeldJob> jobs, boolean shared) {
        this.jobs = jobs;
        this.shared = shared;
    }

    /** An independent copy, O(1): both copy the map before their next write. */
    HeldJobs fork() {
        if (!shared) {
            shared = true; // both copy before writing
        }
        return new HeldJobs(jobs, true);
    }

    /** Marks the map shared, so that this instance never writes it again (for a base ledger). */
    void share() {
        shared = true;
    }

    HeldJob get(long jobId) {
        return jobs.get(jobId);
    }

    boolean containsKey(long jobId) {
        return jobs.containsKey(jobId);
    }

    /**
     * The jobs of {@code partition} running on exactly {@code nodes} nodes — not suspended, their units not freed by a
     * what-if — by job id (the order Slurm's job list keeps them in: creation order).
     */
    java.util.List<Long> running(String partition, int nodes) {
        return jobs.entrySet().stream().filter(e -> {
            HeldJob h = e.getValue();
            return !h.suspended() && !h.cpusFreed() && h.shares().size() == nodes && h.partition().equals(partition);
        }).map(Map.Entry::getKey).sorted().toList();
    }

    void put(long jobId, HeldJob job) {
        writable().put(jobId, job);
    }

    HeldJob remove(long jobId) {
        return writable().remove(jobId);
    }

    private Map<Long, HeldJob> writable() {
        if (shared) {
            jobs = new LinkedHashMap<>(jobs);
            shared = false;
        }
        return jobs;
    }
}
