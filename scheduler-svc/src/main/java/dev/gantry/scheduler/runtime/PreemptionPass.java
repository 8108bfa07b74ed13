package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.SelectRequests;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.CandidateList;
import dev.gantry.scheduler.preempt.Escalation;
import dev.gantry.scheduler.preempt.NodeMemory;
import dev.gantry.scheduler.preempt.PreemptAction;
import dev.gantry.scheduler.preempt.PreemptionPlan;
import dev.gantry.scheduler.preempt.PreemptionPlanner;
import dev.gantry.scheduler.preempt.VictimPlan;
import dev.gantry.scheduler.preempt.VictimPool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Preemption after a main pass (PreemptType partition_prio or qos): for the first pending jobs that could not start
 * and have preemptable candidates ({@link PreemptionPlanner}), one batched select-svc PlacePreempting call names the
 * fewest victims; the planner turns them into modes, grace times and escalations, and the controller preempts. The
 * preemptor starts on a later pass, once its victims' resources are free. CANCEL and REQUEUE are carried out here;
 * SUSPEND (which needs the preemptor placed over suspended jobs, and gang-svc's shadows) is not wired yet: a plan that
 * needs it is not carried out.
 */
final class PreemptionPass {

    private static final Logger LOG = LoggerFactory.getLogger(PreemptionPass.class);
    /** Preemptors tried per pass: the planner's candidate search is per preemptor. */
    static final int MAX_PREEMPTORS = 20;

    private final Controller controller;
    private final SelectClient select;
    /** Rebuilt when the settings change (a QOS edited through the API); read and used on the controller thread. */
    private PreemptionPlanner planner;
    /** Preemptor → its victims still ending: it is not given more until they are gone. */
    private final Map<Long, Set<Long>> outstanding = new HashMap<>();
    private boolean warnedSuspend;

    PreemptionPass(Controller controller, SelectClient select) {
        this.controller = controller;
        this.select = select;
        this.planner = new PreemptionPlanner(controller.preemptSettings());
    }

    private record Prepared(List<JobRecord> preemptors, PlacePreemptingRequest request) {}

    /** @param considered the jobs the main pass just asked select-svc to place, in queue order */
    void run(List<JobRecord> considered) throws InterruptedException {
        Prepared p = controller.call(() -> prepare(considered)).join();
        if (p == null) {
            return;
        }
        PlacePreemptingResponse answer = select.call("preempt", p.request.getMinRevision(),
                stub -> stub.placePreempting(p.request));
        if (answer != null) {
            controller.run(() -> apply(p.preemptors, answer)).join();
        }
    }

    /**
     * The main pass's jobs that are still pending (it has just decided their eligibility and order), with their
     * preemptable candidates; the running jobs are sorted into victim order only when some job is left pending.
     */
    private Prepared prepare(List<JobRecord> considered) {
        ClusterState state = controller.state;
        if (planner.settings() != controller.preemptSettings()) {
            planner = new PreemptionPlanner(controller.preemptSettings());
        }
        outstanding.values().forEach(v -> v.removeIf(id -> {
            JobRecord j = state.job(id);
            return j == null || !ClusterState.holds(j);
        }));
        outstanding.values().removeIf(Set::isEmpty);
        Instant now = controller.clock.instant();
        VictimPool pool = null;
        List<JobRecord> preemptors = new ArrayList<>();
        PlacePreemptingRequest.Builder request = PlacePreemptingRequest.newBuilder().setEpoch(controller.epoch())
                .setMinRevision(controller.events.revision());
        for (JobRecord seen : considered) {
            if (preemptors.size() >= MAX_PREEMPTORS) {
                break;
            }
            JobRecord j = state.job(seen.id());
            if (j == null || j.state() != JobState.PENDING || j.completing() || outstanding.containsKey(j.id())) {
                continue;
            }
            if (pool == null) {
                pool = planner.pool(state.jobs().stream().filter(r -> r.state().holdsResources() && !r.completing())
                        .toList());
            }
            CandidateList candidates = planner.candidates(j, j.partition(), pool, now);
            if (candidates.order().isEmpty()) {
                continue;
            }
            preemptors.add(j);
            request.addQueries(PreemptionQuery.newBuilder().setJob(SelectRequests.of(j)).addAllPreemptable(candidates.order()));
        }
        return preemptors.isEmpty() ? null : new Prepared(preemptors, request.build());
    }

    private void apply(List<JobRecord> preemptors, PlacePreemptingResponse answer) {
        Instant now = controller.clock.instant();
        Map<String, NodeMemory> memory = new HashMap<>();
        for (NodeRecord n : controller.state.nodes()) {
            memory.put(n.name(), new NodeMemory(n.name(), n.config().realMemoryMb(), n.allocMemoryMb()));
        }
        for (int i = 0; i < answer.getResultsCount() && i < preemptors.size(); i++) {
            PreemptionPlacement r = answer.getResults(i);
            JobRecord preemptor = controller.state.job(preemptors.get(i).id());
            if (preemptor == null || preemptor.state() != JobState.PENDING || !r.getPlacement().getStartNow()
                    || r.getVictimsCount() == 0) {
                continue;
            }
            List<NodeShare> placement = r.getPlacement().getNodesList().stream().map(JobProtos::share).toList();
            PreemptionPlan plan = planner.plan(preemptor, r.getPlacement().getPartition(), placement, r.getVictimsList(),
                    controller.state::job, memory, now);
            switch (plan) {
                case PreemptionPlan.Refused no -> {
                    LOG.info("job {} does not preempt: {}", preemptor.id(), no.reason());
                    controller.metrics.preemptionRefused(no.why().name().toLowerCase(java.util.Locale.ROOT));
                    if (no.why() == PreemptionPlan.Why.TOO_MANY_VICTIMS) {
                        controller.state.put(preemptor.toBuilder().reason("PreemptMaxVictims").build());
                    }
                }
                case PreemptionPlan.Go go -> carryOut(preemptor, go, now);
            }
        }
    }

    private void carryOut(JobRecord preemptor, PreemptionPlan.Go go, Instant now) {
        if (go.victims().stream().anyMatch(v -> v.mode() == PreemptAction.SUSPEND)) {
            if (!warnedSuspend) {
                LOG.warn("job {} would preempt by SUSPEND, which the controller does not carry out yet; it waits",
                        preemptor.id());
                warnedSuspend = true;
            }
            return;
        }
        Set<Long> ids = new HashSet<>();
        Map<Long, Escalation> escalated = new HashMap<>();
        go.escalations().forEach(e -> escalated.put(e.victimId(), e));
        for (VictimPlan v : go.victims()) {
            JobRecord victim = controller.state.job(v.jobId());
            if (victim == null || !victim.state().holdsResources() || victim.completing()) {
                continue;
            }
            Escalation e = escalated.get(v.jobId());
            String note = "Preempted by job " + preemptor.id()
                    + (e == null ? "" : " (" + e.from() + " escalated to " + e.to() + ": " + e.why() + ")");
            long killAfter = v.graceSeconds() + controller.killWait();
            JobRecord next = v.mode() == PreemptAction.REQUEUE
                    ? Controller.stopping(victim, JobState.PENDING, now).reason(note).build()
                    : Controller.stopping(victim, JobState.PREEMPTED, now).endTime(now.plusSeconds(v.graceSeconds()))
                            .reason(note).build();
            controller.state.put(next);
            controller.writer.write(next);
            controller.launcher.terminate(next, killAfter, "preempted by job " + preemptor.id());
            controller.metrics.preempted(v.mode().name().toLowerCase(java.util.Locale.ROOT), victim.partition(),
                    victim.controls().qos());
            if (e != null) {
                controller.metrics.escalated(e.from().name().toLowerCase(java.util.Locale.ROOT),
                        e.to().name().toLowerCase(java.util.Locale.ROOT));
            }
            ids.add(v.jobId());
            LOG.info("job {} preempted ({}) for job {}", v.jobId(), v.mode(), preemptor.id());
        }
        if (!ids.isEmpty()) {
            outstanding.put(preemptor.id(), ids);
            controller.metrics.victims(ids.size());
        }
    }
}
