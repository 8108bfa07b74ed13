package dev.gantry.gang.slice;

import dev.gantry.common.overlap.ActiveSet;
import dev.gantry.common.overlap.Holding;
import dev.gantry.common.overlap.NodeTable;
import dev.gantry.common.overlap.OverlapRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition's job list and active set (Slurm's gang scheduler, https://slurm.schedmd.com/gang_scheduling.html,
 * "Timeslicer Design and Operation"). The list starts in allocation order; rotation reorders it. Decisions are
 * recorded into a {@link SliceLog}, never executed. Not thread-safe: confined to its {@link Timeslicer}.
 */
final class PartitionRotation {

    final String name;
    final int priorityTier;
    final boolean gang;
    final List<GangJob> jobs = new ArrayList<>();

    PartitionRotation(PartitionShape shape) {
        this.name = shape.name();
        this.priorityTier = shape.priorityTier();
        this.gang = shape.gang();
    }

    /**
     * Rebuilds the active set keeping the current order and what runs (Slurm's _update_active_row): shadows first,
     * then the active jobs in list order, then the fillers — one that no longer fits (a shadow or an earlier job took
     * its resources) is suspended — then every suspended job in list order that now fits is resumed as a filler. A
     * newly allocated job is last in the list, so it runs only if it overlaps nobody running.
     */
    void reconcile(List<Holding> shadows, OverlapRule rule, NodeTable table, Instant now, SliceLog log) {
        if (!gang) {
            return;
        }
        ActiveSet active = withShadows(shadows, rule, table);
        keepRunning(active, false, now, log);
        keepRunning(active, true, now, log);
        for (GangJob job : jobs) {
            if (job.rotates() && !job.running && active.fits(job.holding)) {
                active.add(job.holding);
                log.resume(this, job, now, true);
            }
        }
    }

    /** Keeps the running jobs of one row state (active or filler) that still fit, in list order; suspends the rest. */
    private void keepRunning(ActiveSet active, boolean fillers, Instant now, SliceLog log) {
        for (GangJob job : jobs) {
            if (job.rotates() && job.running && job.filler == fillers) {
                if (active.fits(job.holding)) {
                    active.add(job.holding);
                } else {
                    log.suspend(this, job, now);
                }
            }
        }
    }

    /**
     * One time slice (Slurm's _cycle_job_list): if any job waits suspended, the active jobs move to the end of the
     * list (keeping their order) while fillers keep their place, and the active set is rebuilt from the front — the
     * suspended job that has waited longest first — adding each job that fits beside the shadows and the jobs
     * already added; every job in the new set is active. Jobs that left the set are suspended, jobs new to it
     * resumed. A filler therefore runs on through the first rotation after it started, so every running job keeps
     * the resources for at least one whole slice. With nobody waiting it only {@link #reconcile}s (shadows may have
     * moved), and fillers stay fillers, as in Slurm, where the timeslicer leaves such a partition alone.
     *
     * @return whether the list rotated
     */
    boolean rotate(List<Holding> shadows, OverlapRule rule, NodeTable table, Instant now, SliceLog log) {
        if (!gang) {
            return false;
        }
        if (jobs.stream().noneMatch(job -> job.rotates() && !job.running)) {
            reconcile(shadows, rule, table, now, log);
            return false;
        }
        List<GangJob> staying = new ArrayList<>(jobs.size());
        List<GangJob> ran = new ArrayList<>();
        for (GangJob job : jobs) {
            (job.rotates() && job.running && !job.filler ? ran : staying).add(job);
        }
        jobs.clear();
        jobs.addAll(staying);
        jobs.addAll(ran);
        ActiveSet active = withShadows(shadows, rule, table);
        List<GangJob> joining = new ArrayList<>();
        for (GangJob job : jobs) {
            boolean fits = job.rotates() && active.fits(job.holding);
            if (fits) {
                active.add(job.holding);
                if (job.running) {
                    job.filler = false;
                } else {
                    joining.add(job);
                }
            } else if (job.rotates() && job.running) {
                log.suspend(this, job, now);
            }
        }
        joining.forEach(job -> log.resume(this, job, now, false));
        return true;
    }

    /** Holdings of the jobs running here (gang-svc's decision; what the controller reports where gang is off). */
    void addRunningHoldings(List<Holding> into) {
        for (GangJob job : jobs) {
            if (gang ? job.rotates() && job.running : !job.observedSuspended) {
                into.add(job.holding);
            }
        }
    }

    private static ActiveSet withShadows(List<Holding> shadows, OverlapRule rule, NodeTable table) {
        ActiveSet active = rule.emptySet(table);
        shadows.forEach(active::add);
        return active;
    }
}
