package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
import dev.gantry.select.model.ReplicaView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Slurm's sched/backfill pass as one pure call (https://slurm.schedmd.com/sched_config.html): the pending queue in
 * priority order over the availability profile of running jobs' expected ends. For each job, in order:
 * <ol>
 *   <li>past bf_max_job_test: {@link BackfillAnswer.NotTested};</li>
 *   <li>it starts now if some partition of its own has the resources free for its whole time limit without delaying a
 *       held reservation ({@link BackfillAnswer.StartNow}; the start counts for every later job);</li>
 *   <li>else, if it lacked resources, its earliest start and nodes on the profile within bf_window (to the second: a
 *       running job's end, or a held reservation's end, which is on bf_resolution): {@link BackfillAnswer.Reserved} (held: later jobs plan around it) when it may reserve and the mode
 *       lets it — CONSERVATIVE: always; EASY: when no earlier job of that partition holds one — else
 *       {@link BackfillAnswer.Estimated} (holds nothing);</li>
 *   <li>else {@link BackfillAnswer.NoStart}: Resources when no start is found within the window, or the partition's
 *       reason (PartitionDown, PartitionInactive, PartitionConfig).</li>
 * </ol>
 * Guarantees (property- and scenario-tested): a started job never overlaps a held reservation's resources in time;
 * a job that may not reserve never holds; EASY holds at most one reservation per partition.
 *
 * <p>Pure: the view is not changed, the same inputs give the same answers. Thread-safe (holds nothing between calls).
 */
final class BackfillPass {
    private BackfillPass() {}

    static List<BackfillAnswer> run(ReplicaView view, List<BackfillJob> jobs, BackfillOptions options) {
        PlanRun run = new PlanRun(view, new PlanOptions(false, true, options.now(), options.windowSeconds(),
                options.resolutionSeconds()));
        Set<String> holding = new HashSet<>();
        Set<String> none = Set.of();
        List<BackfillAnswer> answers = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            BackfillJob job = jobs.get(i);
            if (options.maxJobTest() > 0 && i >= options.maxJobTest()) {
                answers.add(new BackfillAnswer.NotTested(job.jobId()));
                continue;
            }
            Attempt attempt = PlacementPlanner.attempt(run, job.request(), none);
            if (attempt.start() != null) {
                answers.add(new BackfillAnswer.StartNow(attempt.start()));
            } else if (!attempt.lackedResources()) {
                answers.add(new BackfillAnswer.NoStart(job.jobId(), attempt.reason()));
            } else {
                answers.add(reserve(run, job, attempt.lacking(), options.mode(), holding));
            }
        }
        return answers;
    }

    private static BackfillAnswer reserve(PlanRun run, BackfillJob job, List<JobShape> lacking, ReservationMode mode,
                                          Set<String> holding) {
        Optional<Found> found = run.earliest(lacking);
        if (found.isEmpty()) {
            return new BackfillAnswer.NoStart(job.jobId(), PendingReason.RESOURCES);
        }
        Placement.Reservation reservation = found.get().reservation();
        if (!job.mayReserve()) {
            return new BackfillAnswer.Estimated(job.jobId(), reservation, BackfillAnswer.NotHolding.NO_RESERVE);
        }
        if (mode == ReservationMode.EASY && !holding.add(reservation.partition())) {
            return new BackfillAnswer.Estimated(job.jobId(), reservation, BackfillAnswer.NotHolding.EASY);
        }
        run.hold(found.get());
        return new BackfillAnswer.Reserved(job.jobId(), reservation);
    }
}
