package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.Reservation;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.common.config.BackfillSettings;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.store.Database;
import dev.gantry.scheduler.store.JdbcJobStore;
import dev.gantry.scheduler.store.JdbcStateStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BackfillPolicy=PREEMPT across a controller restart over the same PostgreSQL database: backfill starts a job over a
 * held reservation and marks it preemptable; after the restart the job holding the reservation still preempts it.
 * The controller and its scheduling loop are real; select-svc is a scripted fake (where jobs fit is not the subject).
 */
class BackfillPreemptionRestartTest {

    static final String CONFIG = """
            SchedulerType=sched/backfill
            SchedulerParameters=bf_interval=1
            NodeName=n1 CPUs=2 RealMemory=1000
            PartitionName=p Nodes=n1 Default=YES MaxTime=120 BackfillPolicy=PREEMPT
            """;

    /**
     * select-svc as the scenario needs it: the reserved job waits for a reservation at {@code reservationStart}, the
     * backfill pass's call starts the backfill job now over it when the controller names it for that
     * ({@code over_reservation_job_ids}), and the main pass's Plan places the reserved job over the backfill job once
     * {@code othersGone} (the resources its reservation waits for besides the backfill job's are free).
     */
    static final class ScriptedSelect extends SelectGrpc.SelectImplBase {
        volatile long reserved;
        volatile long backfill;
        volatile Instant reservationStart;
        volatile boolean othersGone;
        final List<PlacePreemptingRequest> preemptQueries = new CopyOnWriteArrayList<>();

        @Override
        public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
            PlanResponse.Builder r = PlanResponse.newBuilder(); // the main pass: nobody starts (omit_priority)
            if (request.hasPreemption()) {
                r.setPreemption(preempt(request.getPreemption()));
            }
            out.onNext(r.build());
            out.onCompleted();
        }

        @Override
        public void earliestStarts(EarliestStartsRequest request, StreamObserver<EarliestStartsResponse> out) {
            EarliestStartsResponse.Builder r = EarliestStartsResponse.newBuilder().setTested(request.getJobsCount());
            for (ResourceRequest j : request.getJobsList()) {
                Reservation.Builder res = Reservation.newBuilder().setJobId(j.getJobId()).setPartition("p")
                        .setReason(PendingReason.RESOURCES.slurmName());
                if (j.getJobId() == reserved) {
                    res.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_RESERVED)
                            .setStartTime(JobProtos.ts(reservationStart)).addNodes(NodeAllocation.newBuilder().setNode("n1"));
                } else {
                    res.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_NO_START); // its time limit overlaps the reservation
                }
                r.addReservations(res);
            }
            if (request.getOverReservationJobIdsList().contains(backfill)) { // over the reservation: it fits now
                r.addOverReservations(onN1(backfill, 1));
            }
            out.onNext(r.build());
            out.onCompleted();
        }

        /** The main pass's preemption part (nobody starts in its placements, so every query is tried). */
        private PlacePreemptingResponse preempt(PlacePreemptingRequest request) {
            preemptQueries.add(request);
            PlacePreemptingResponse.Builder r = PlacePreemptingResponse.newBuilder();
            for (PreemptionQuery q : request.getQueriesList()) {
                long id = q.getJob().getJobId();
                boolean go = othersGone && id == reserved && q.getPreemptableList().contains(backfill);
                r.addResults(go ? PreemptionPlacement.newBuilder().setPlacement(onN1(id, 2)).addVictims(backfill)
                        : PreemptionPlacement.newBuilder().setPlacement(Placement.newBuilder().setJobId(id)
                                .setReason(PendingReason.RESOURCES.slurmName())));
            }
            return r.build();
        }

        private static Placement onN1(long job, int cpus) {
            return Placement.newBuilder().setJobId(job).setStartNow(true).setPartition("p")
                    .addNodes(NodeAllocation.newBuilder().setNode("n1").setCpus(cpus).setMemoryMb(100)).build();
        }
    }

    @TempDir
    Path stateDir;

    final ScriptedSelect select = new ScriptedSelect();
    final FakeAgent agent = new FakeAgent();
    Server agentServer;
    InProcessSelect selectService;
    ManagedChannel selectChannel;

    @AfterEach
    void stop() {
        if (selectService != null) {
            selectService.close();
        }
        if (agentServer != null) {
            agentServer.shutdownNow();
        }
    }

    @Test
    void aBackfillJobStartedOverAReservation_staysPreemptableAcrossAControllerRestart() throws Exception {
        agentServer = io.grpc.Grpc.newServerBuilderForPort(0, io.grpc.InsecureServerCredentials.create())
                .addService(agent).build().start();
        selectService = new InProcessSelect(select);
        selectChannel = selectService.channel;
        try (Database db = Database.embedded(stateDir, 2)) {
            long reserved;
            long backfill;
            ControllerHarness before = new ControllerHarness(CONFIG, new JdbcJobStore(db.dataSource()),
                    new JdbcStateStore(db.dataSource()));
            try {
                register(before);
                reserved = submit(before, 2);
                backfill = submit(before, 1);
                select.reserved = reserved;
                select.backfill = backfill;
                select.reservationStart = before.now.get().plusSeconds(3600); // not yet due
                try (SchedulingLoop loop = loop(before)) {
                    await("backfill starts the job over the reservation",
                            () -> before.job(backfill).state() == JobState.RUNNING);
                }
                assertTrue(before.job(backfill).backfillPreemptable());
                assertEquals(JobState.PENDING, before.job(reserved).state());
            } finally {
                before.close(); // the controller stops; the group commit writes what is queued
            }

            ControllerHarness after = new ControllerHarness(CONFIG, new JdbcJobStore(db.dataSource()),
                    new JdbcStateStore(db.dataSource()));
            try {
                JobRecord restored = after.job(backfill);
                assertEquals(JobState.RUNNING, restored.state());
                assertTrue(restored.backfillPreemptable(), "the mark is stored with the job");
                register(after);
                select.preemptQueries.clear();
                select.reservationStart = after.now.get(); // the reservation's start has come
                select.othersGone = true;
                try (SchedulingLoop loop = loop(after)) {
                    await("the reserved job preempts the backfill job",
                            () -> after.job(backfill).preemptTime() != null);
                }
                JobRecord victim = after.job(backfill);
                assertEquals(JobState.PENDING, victim.state(), "requeued: it may be");
                assertFalse(victim.backfillPreemptable(), "the requeue ends the marked run");
                assertTrue(select.preemptQueries.stream().flatMap(q -> q.getQueriesList().stream())
                        .anyMatch(q -> q.getJob().getJobId() == reserved && q.getPreemptableList().contains(backfill)));
                await("the victim's processes are told to end",
                        () -> agent.terminates.stream().anyMatch(t -> t.getJobId() == backfill));
            } finally {
                after.close();
            }
        }
    }

    private SchedulingLoop loop(ControllerHarness h) {
        SchedulingLoop loop = new SchedulingLoop(h.controller.passes, selectChannel, 50,
                BackfillSettings.DEFAULTS.withIntervalSeconds(1));
        h.controller.setScheduleTrigger(loop::trigger);
        return loop;
    }

    private void register(ControllerHarness h) {
        h.register("127.0.0.1:" + agentServer.getPort(), "n1");
    }

    private static long submit(ControllerHarness h, int cpus) {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(3600).setNtasks(cpus).setRequeue(true).build()))
                .join();
    }
}
