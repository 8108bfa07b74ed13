package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.cycle.PlacementCheck;
import dev.gantry.scheduler.cycle.PlacementRefusal;
import dev.gantry.scheduler.lifecycle.Start;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.PreemptionPlan;
import dev.gantry.scheduler.preempt.VictimPlan;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a preemption whose victims are all SUSPEND (PreemptMode=SUSPEND,GANG; https://slurm.schedmd.com/preempt.html),
 * on the controller thread, in the pass that planned it:
 * <ol>
 *   <li>re-checks the placement with the victims' CPUs and cores free and their memory and GRES held
 *       ({@link PlacementCheck#check(dev.gantry.scheduler.model.ClusterState, JobRecord, String, List, java.util.Collection)});</li>
 *   <li>starts the preemptor over them ({@code allocation_added}, launch), telling the agents to freeze the victims
 *       still running just before its launch is sent (so they stop before the preemptor runs and their freeze does
 *       not queue behind its launch), once its credential is signed and its launch built;</li>
 *   <li>then records the victims SUSPENDED ({@code allocation_changed}).</li>
 * </ol>
 * The order is gang-svc's agreement: it sees the preemptor first, as a shadow over the lower-tier victims, so the
 * suspensions that follow are the ones its own rebuild decides (not "suspended by someone else", which it would hold
 * out of rotation). It keeps them suspended while the preemptor runs and resumes them when it ends (its release
 * rebuild); the controller never resumes them itself. A suspended victim keeps its whole allocation in the controller
 * and in select-svc, so when the preemptor ends only a job that outranks it again can take those CPUs: lower and equal
 * tiers wait until it has resumed and ended. Victims already suspended (time-sliced in their own partition) stay so.
 *
 * <p>Time-sliced victims (preempt/qos, preemptor in the victim's partition) are not suspended here: gang-svc
 * time-slices them with the preemptor (Slurm: "they will share resources with the Gang scheduler"), which starts the
 * newcomer suspended until its first slice, as gang scheduling does any job sharing a running job's resources.
 */
final class SuspendPreemption {

    private static final Logger LOG = LoggerFactory.getLogger(SuspendPreemption.class);

    private final ClusterState state;
    private final LifecycleApplier applier;
    private final GangSlices gang;
    private final SchedulerMetrics metrics;
    private final InstantSource clock;
    private final EventLog events;

    SuspendPreemption(ClusterState state, LifecycleApplier applier, GangSlices gang, SchedulerMetrics metrics,
            InstantSource clock, EventLog events) {
        this.events = events;
        this.state = state;
        this.applier = applier;
        this.gang = gang;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * @param placement  select-svc's placement of the preemptor over its SUSPEND victims
     * @param answeredAt the revision select-svc placed it at
     */
    void carryOut(JobRecord preemptor, PreemptionPlan.Go go, String partition, List<NodeShare> placement, Instant now,
            long answeredAt) {
        List<JobRecord> victims = new ArrayList<>();
        for (VictimPlan v : go.victims()) {
            JobRecord victim = state.job(v.jobId());
            if (victim == null || !victim.state().holdsResources() || victim.completing()
                    || v.mode() != PreemptAction.SUSPEND) {
                return; // stale: the change that made it so triggers the next pass, which plans again
            }
            victims.add(victim);
        }
        Optional<String> problem = PlacementCheck.check(state, preemptor, partition, placement, victims);
        if (problem.isPresent()) {
            if (PlacementRefusal.of(answeredAt, events.revision()) == PlacementRefusal.DISAGREEMENT) {
                LOG.warn("job {} does not start over its suspended victims: {} (placed at revision {}: select-svc and "
                        + "the controller disagree)", preemptor.id(), problem.get(), answeredAt);
                metrics.placementDisagreement("preempt");
            } else {
                LOG.debug("job {} does not start over its suspended victims: {}", preemptor.id(), problem.get());
            }
            return; // planned again on the next pass (every change, and every few seconds)
        }
        List<Boolean> suspend = new ArrayList<>();
        for (int i = 0; i < victims.size(); i++) {
            suspend.add(!go.victims().get(i).timeSliced() && victims.get(i).state() == JobState.RUNNING);
        }
        List<JobRecord> freeze = new ArrayList<>();
        for (int i = 0; i < victims.size(); i++) {
            if (suspend.get(i)) {
                freeze.add(victims.get(i));
            }
        }
        applier.apply(Start.start(preemptor, Start.Placement.of(partition, placement), gang::startsSuspended, freeze,
                clock.instant()));
        for (int i = 0; i < victims.size(); i++) {
            JobRecord victim = victims.get(i);
            VictimPlan v = go.victims().get(i);
            if (suspend.get(i)) {
                gang.suspend(victim.toBuilder().endNote("Preempted by job " + preemptor.id())
                        .preemptTime(now).build(), now, false);
            }
            metrics.preempted(PreemptAction.SUSPEND.name().toLowerCase(Locale.ROOT), victim.partition(),
                    victim.controls().qos());
            LOG.info("job {} preempted ({}) for job {}", victim.id(), v.timeSliced() ? "SUSPEND, time-sliced" : "SUSPEND",
                    preemptor.id());
        }
        metrics.victims(victims.size());
    }
}
