package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.SelectRequests;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.lifecycle.Preemption;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.BackfillPreemption;
import dev.gantry.scheduler.preempt.CandidateList;
import dev.gantry.scheduler.preempt.Escalation;
import dev.gantry.scheduler.preempt.NodeGres;
import dev.gantry.scheduler.preempt.NodeMemory;
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
 * Preemption in a main pass (PreemptType partition_prio or qos): the pass's pending jobs with preemptable candidates
 * ({@link PreemptionPlanner}) get queries in the pass's one Plan call ({@link #ask}), and select-svc names the fewest
 * victims for the first of them its placements leave waiting; the planner turns them into modes, grace times and
 * escalations, and the controller preempts ({@link #answer}). The preemptor starts on a later pass, once its victims'
 * resources are free. CANCEL and REQUEUE are carried out here; a plan whose victims are all SUSPEND starts the
 * preemptor at once over them ({@link SuspendPreemption}).
 * A job holding a backfill reservation may also preempt the BackfillPolicy=PREEMPT jobs backfill started over it
 * ({@link BackfillPreemption}: whatever PreemptType says, REQUEUE or CANCEL, no grace time), in a query of its own
 * ahead of its ordinary one; the first of the two that goes ahead is carried out.
 */
final class PreemptionPass {

    private static final Logger LOG = LoggerFactory.getLogger(PreemptionPass.class);
    /** Preemptors tried per pass: the planner's candidate search is per preemptor. */
    static final int MAX_PREEMPTORS = 20;

    private final PassContext passes;
    /** Rebuilt when the settings change (a QOS edited through the API); read and used on the controller thread. */
    private PreemptionPlanner planner;
    /**
     * Preemptor → its victims still ending, each with the start time of the run it preempted: the preemptor is not
     * given more until they are gone. A requeued victim that has started again (another partition's pass may start it
     * before the preemptor fits) is a new run, not one still ending, and may be preempted again.
     */
    private final Map<Long, Map<Long, Instant>> outstanding = new HashMap<>();
    /**
     * Preemptor → its REQUEUE victims. While the preemptor is pending and another of its victims is still ending, they
     * are held out of the passes ({@link #heldBack}): started again on the node freed first, they would only be
     * preempted again a moment later.
     */
    private final Map<Long, Set<Long>> requeued = new HashMap<>();
    private final ExemptRefusals exempt = new ExemptRefusals();
    private final SuspendPreemption suspending;
    /** The preemptable backfill jobs, or null when no partition has BackfillPolicy=PREEMPT. */
    private final BackfillPreemption backfilled;

    PreemptionPass(PassContext passes, BackfillPreemption backfilled) {
        this.passes = passes;
        this.backfilled = backfilled;
        this.planner = new PreemptionPlanner(passes.preemptSettings());
        this.suspending = new SuspendPreemption(passes.state, passes.applier, passes.gang, passes.metrics,
                passes.clock, passes.events);
        passes.setPreemptionHolds(this::heldBack);
    }

    /** The requeued victims to keep out of the passes now (controller thread; see {@link #requeued}). */
    Set<Long> heldBack() {
        if (requeued.isEmpty()) {
            return Set.of();
        }
        ClusterState state = passes.state;
        Set<Long> held = new HashSet<>();
        requeued.entrySet().removeIf(e -> {
            JobRecord preemptor = state.job(e.getKey());
            Map<Long, Instant> ending = outstanding.getOrDefault(e.getKey(), Map.of());
            boolean waits = preemptor != null && preemptor.state() == JobState.PENDING && !preemptor.completing()
                    && ending.entrySet().stream().anyMatch(v -> stillEnding(state, v.getKey(), v.getValue()));
            if (waits) {
                held.addAll(e.getValue());
            }
            return !waits;
        });
        return held;
    }

    /** Whether the run of {@code id} started at {@code start} still holds its resources. */
    private static boolean stillEnding(ClusterState state, long id, Instant start) {
        JobRecord j = state.job(id);
        return j != null && ClusterState.holds(j) && java.util.Objects.equals(j.startTime(), start);
    }

    /**
     * A pass's preemption question: the queries' jobs, in query order, and the question for select-svc.
     *
     * @param overBackfill the queries (indices) whose candidates are preemptable backfill jobs; such a preemptor may
     *     have an ordinary query after it too, and the first that goes ahead wins
     */
    record Asked(List<JobRecord> preemptors, Set<Integer> overBackfill, PlacePreemptingRequest request) {}

    /**
     * The preemption part of a main pass's Plan call (controller thread): for the pass's pending jobs in queue order,
     * each with preemptable candidates gets a query; select-svc tries those the Plan's placements leave without a start,
     * at most {@link #MAX_PREEMPTORS}. As queries are built before the placements are known, up to twice as many are
     * sent. The running jobs are sorted into victim order only when some job has a query. Null when there is none.
     *
     * @param considered the jobs the main pass asks select-svc to place, in queue order
     */
    Asked ask(List<JobRecord> considered) {
        ClusterState state = passes.state;
        if (planner.settings() != passes.preemptSettings()) {
            planner = new PreemptionPlanner(passes.preemptSettings());
        }
        outstanding.values().forEach(v -> v.entrySet().removeIf(e -> !stillEnding(state, e.getKey(), e.getValue())));
        outstanding.values().removeIf(Map::isEmpty);
        exempt.forgetUnless(id -> {
            JobRecord j = state.job(id);
            return j != null && j.state() == JobState.PENDING;
        });
        Instant now = passes.clock.instant();
        List<Long> backfillCandidates = backfilled == null ? List.of() : backfilled.candidates(state::job);
        VictimPool pool = null;
        List<JobRecord> preemptors = new ArrayList<>();
        Set<Integer> overBackfill = new HashSet<>();
        PlacePreemptingRequest.Builder request = PlacePreemptingRequest.newBuilder()
                .setReorderCount(planner.settings().parameters().reorderCount())
                .setStrictOrder(planner.settings().parameters().strictOrder())
                .setMaxTried(MAX_PREEMPTORS);
        for (JobRecord seen : considered) {
            if (preemptors.size() >= 2 * MAX_PREEMPTORS) {
                break;
            }
            JobRecord j = state.job(seen.id());
            if (j == null || j.state() != JobState.PENDING || j.completing() || outstanding.containsKey(j.id())) {
                continue;
            }
            if (!backfillCandidates.isEmpty() && BackfillPreemption.mayPreempt(j, true, now)) {
                // before its reservation's time, only the first job left waiting may preempt backfilled jobs
                overBackfill.add(preemptors.size());
                preemptors.add(j);
                request.addQueries(PreemptionQuery.newBuilder().setJob(SelectRequests.of(j))
                        .addAllPreemptable(backfillCandidates)
                        .setFirstBlockedOnly(!BackfillPreemption.mayPreempt(j, false, now)));
            }
            if (!planner.settings().enabled()) {
                continue; // PreemptType=preempt/none: only preemptable backfill jobs are ever preempted
            }
            if (pool == null) {
                pool = planner.pool(state.jobs().stream().filter(r -> r.state().holdsResources() && !r.completing())
                        .toList());
            }
            CandidateList candidates = planner.candidates(j, j.partition(), pool, now);
            exempt.note(candidates, passes.metrics);
            if (candidates.order().isEmpty()) {
                continue;
            }
            preemptors.add(j);
            PreemptionQuery.Builder query = PreemptionQuery.newBuilder().setJob(SelectRequests.of(j))
                    .addAllPreemptable(candidates.order());
            for (long id : candidates.order()) {
                JobRecord c = state.job(id);
                if (c != null && planner.settings().modeOf(c).action() == PreemptAction.SUSPEND) {
                    query.addSuspendable(id); // select-svc frees only its CPUs: it stays in memory
                }
            }
            request.addQueries(query);
        }
        return preemptors.isEmpty() ? null : new Asked(preemptors, Set.copyOf(overBackfill), request.build());
    }

    /**
     * Carries out select-svc's answer to {@link #ask} (controller thread), after the pass has started the jobs it
     * placed: each tried query whose job is still pending and placed over victims is planned (modes, grace times,
     * escalations) and preempts; the first of a job's queries that goes ahead wins.
     */
    void answer(Asked asked, PlacePreemptingResponse answer) {
        List<JobRecord> preemptors = asked.preemptors;
        Instant now = passes.clock.instant();
        Map<String, NodeMemory> memory = new HashMap<>();
        Map<String, NodeGres> gres = new HashMap<>();
        for (NodeRecord n : passes.state.nodes()) {
            memory.put(n.name(), new NodeMemory(n.name(), n.config().realMemoryMb(), n.allocMemoryMb()));
            if (!n.config().gres().isEmpty()) {
                Map<String, Long> configured = new HashMap<>();
                n.config().gres().forEach(g -> configured.merge(
                        new GresGrant(g.name(), g.type(), 0, List.of()).key(), g.count(), Long::sum));
                gres.put(n.name(), new NodeGres(n.name(), configured, passes.state.gresInUse(n.name())));
            }
        }
        Set<Long> acted = new HashSet<>();
        for (int i = 0; i < answer.getResultsCount() && i < preemptors.size(); i++) {
            PreemptionPlacement r = answer.getResults(i);
            JobRecord preemptor = passes.state.job(preemptors.get(i).id());
            if (r.getNotTried() || preemptor == null || preemptor.state() != JobState.PENDING || !r.getPlacement().getStartNow()
                    || r.getVictimsCount() == 0 || !acted.add(preemptor.id())) {
                continue;
            }
            List<NodeShare> placement = r.getPlacement().getNodesList().stream().map(JobProtos::share).toList();
            PreemptionPlan plan = asked.overBackfill.contains(i)
                    ? backfilled.plan(preemptor.id(), r.getVictimsList(), passes.state::job)
                    : planner.plan(preemptor, r.getPlacement().getPartition(), placement, r.getVictimsList(),
                            passes.state::job, memory, gres, now);
            switch (plan) {
                case PreemptionPlan.Refused no -> {
                    LOG.info("job {} does not preempt: {}", preemptor.id(), no.reason());
                    passes.metrics.preemptionRefused(no.why().name().toLowerCase(java.util.Locale.ROOT));
                    if (no.why() == PreemptionPlan.Why.TOO_MANY_VICTIMS) {
                        passes.applier.apply(Decision.of(preemptor.toBuilder().pendingReason(PendingReason.PREEMPT_MAX_VICTIMS).build()));
                    }
                }
                case PreemptionPlan.Go go -> carryOut(preemptor, go, r.getPlacement().getPartition(), placement, now,
                        answer.getRevision());
            }
        }
    }

    /**
     * CANCEL and REQUEUE victims are killed, and the preemptor starts on a later pass once they are gone; SUSPEND victims
     * are left alone until then (a later pass plans again and finds them the only victims). A plan of SUSPEND victims
     * only starts the preemptor at once ({@link SuspendPreemption}).
     */
    private void carryOut(JobRecord preemptor, PreemptionPlan.Go go, String partition, List<NodeShare> placement,
            Instant now, long answeredAt) {
        if (go.victims().stream().allMatch(v -> v.mode() == PreemptAction.SUSPEND)) {
            suspending.carryOut(preemptor, go, partition, placement, now, answeredAt);
            return;
        }
        Map<Long, Instant> ids = new HashMap<>();
        Map<Long, Escalation> escalated = new HashMap<>();
        go.escalations().forEach(e -> escalated.put(e.victimId(), e));
        for (VictimPlan v : go.victims()) {
            JobRecord victim = passes.state.job(v.jobId());
            if (victim == null || !victim.state().holdsResources() || victim.completing()
                    || v.mode() == PreemptAction.SUSPEND) {
                continue;
            }
            passes.applier.apply(Preemption.victim(victim, v, escalated.get(v.jobId()), preemptor.id(), now));
            ids.put(v.jobId(), victim.startTime());
            if (v.mode() == PreemptAction.REQUEUE) {
                requeued.computeIfAbsent(preemptor.id(), k -> new HashSet<>()).add(v.jobId());
            }
        }
        if (!ids.isEmpty()) {
            outstanding.put(preemptor.id(), ids);
            passes.metrics.victims(ids.size());
        }
    }
}
