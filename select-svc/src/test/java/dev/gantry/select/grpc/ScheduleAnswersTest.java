package dev.gantry.select.grpc;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.NotHolding;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PreemptionMethod;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.Reservation;
import dev.gantry.api.v1.ReservationMode;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.PlacementPlanner;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** EarliestStarts and PlacePreempting answered from a replica view, as the gRPC service answers them. */
class ScheduleAnswersTest {

    private static final Instant T0 = Instant.parse("2026-11-22T06:00:00Z");

    private static ResourceRequest job(long id, String partition, int nodes, int tasks) {
        return ResourceRequest.newBuilder().setJobId(id).addPartitions(partition).setMinNodes(nodes).setMaxNodes(nodes)
                .setNumTasks(tasks).setCpusPerTask(1).setTimeLimitSeconds(600).build();
    }

    /** Slurm's preempt.html example: n1–n5 in active and hipri; -N1 -n2 jobs 17, 18, 19 on n1, n2, n3. */
    private static ReplicaView slurmExample() {
        return DomainCluster.consTres("CR_Core").nodes("n", 5, 2, 0).partition("active", "n1", "n2", "n3", "n4", "n5")
                .partition("hipri", "n1", "n2", "n3", "n4", "n5")
                .running(17, "active", 2, 0, "n1").running(18, "active", 2, 0, "n2").running(19, "active", 2, 0, "n3")
                .view();
    }

    private static PlacePreemptingRequest preempt(PreemptionMethod method, long... preemptable) {
        PreemptionQuery.Builder q = PreemptionQuery.newBuilder().setJob(job(20, "hipri", 3, 6));
        for (long id : preemptable) {
            q.addPreemptable(id);
        }
        return PlacePreemptingRequest.newBuilder().setMethod(method).addQueries(q).build();
    }

    @Test
    void placePreempting_slurmsExample_landsOnN3N4N5_preemptingOneJob() {
        for (PreemptionMethod method : List.of(PreemptionMethod.PREEMPTION_METHOD_UNSPECIFIED, PreemptionMethod.PREEMPTION_METHOD_SLURM)) {
            var result = ScheduleAnswers.placePreempting(slurmExample(), preempt(method, 19, 18, 17)).getResults(0);
            assertEquals(List.of(19L), result.getVictimsList(), method.name());
            assertEquals(2, result.getPreemptedCpus());
            assertEquals(List.of("n3", "n4", "n5"), result.getPlacement().getNodesList().stream().map(NodeAllocation::getNode).toList());
        }
    }

    @Test
    void placePreempting_laterQueriesSeeEarlierDecisions() {
        PreemptionQuery first = PreemptionQuery.newBuilder().setJob(job(20, "hipri", 3, 6)).addPreemptable(19).build();
        PreemptionQuery second = PreemptionQuery.newBuilder().setJob(job(21, "hipri", 1, 2)).addPreemptable(19).build();
        var reply = ScheduleAnswers.placePreempting(slurmExample(),
                PlacePreemptingRequest.newBuilder().addQueries(first).addQueries(second).build());
        assertEquals(List.of(19L), reply.getResults(0).getVictimsList());
        assertFalse(reply.getResults(1).getPlacement().getStartNow(), "n1-n5 are all taken once job 20 holds n3-n5");
        assertEquals("Resources", reply.getResults(1).getPlacement().getReason());
    }

    /** n1, n2: 2 cores, 1000 MiB each; job 7 holds n1 with 600 MiB, job 8 holds n2 with {@code n2Memory}. */
    private static ReplicaView twoBusyNodes(long n2Memory) {
        return DomainCluster.consTres("CR_Core_Memory").nodes("n", 2, 2, 1000).partition("low", "n1", "n2")
                .partition("hi", "n1", "n2").running(7, "low", 2, 600, "n1").running(8, "low", 2, n2Memory, "n2").view();
    }

    private static PlacePreemptingRequest suspendingQuery(long memoryMb) {
        ResourceRequest hi = job(9, "hi", 1, 2).toBuilder().setMemPerNodeMb(memoryMb).build();
        return PlacePreemptingRequest.newBuilder().addQueries(PreemptionQuery.newBuilder().setJob(hi)
                .addPreemptable(7).addPreemptable(8).addSuspendable(7).addSuspendable(8)).build();
    }

    @Test
    void placePreempting_suspendableVictims_thePreemptorGoesWhereItsMemoryFitsBesideThem() {
        var result = ScheduleAnswers.placePreempting(twoBusyNodes(200), suspendingQuery(500)).getResults(0);

        assertEquals(List.of(8L), result.getVictimsList(), "n1 keeps 600 MiB of job 7: 500 more do not fit there");
        assertEquals("n2", result.getPlacement().getNodes(0).getNode());
    }

    @Test
    void placePreempting_whenNoSuspensionLeavesRoom_victimsAreFreedWhole() {
        var result = ScheduleAnswers.placePreempting(twoBusyNodes(600), suspendingQuery(500)).getResults(0);

        assertTrue(result.getPlacement().getStartNow(), "the controller escalates the victim to REQUEUE");
        assertEquals(1, result.getVictimsCount());
    }

    /** n1, n2: 2 cores and one GPU each; job 7 holds n1 with its GPU, job 8 holds n2's cores only. */
    private static ReplicaView gpuHeldOnN1() {
        return DomainCluster.consTres("CR_Core").nodes("n", 2, 2, 0).gres("n1", "gpu:1").gres("n2", "gpu:1")
                .partition("low", "n1", "n2").partition("hi", "n1", "n2")
                .runningWithGres(7, "low", "n1", 2, 1).runningWithGres(8, "low", "n2", 2, 0).view();
    }

    private static PlacePreemptingRequest gpuQuery(long... suspendable) {
        ResourceRequest hi = job(9, "hi", 1, 2).toBuilder()
                .addGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu").setCount(1)).build();
        PreemptionQuery.Builder q = PreemptionQuery.newBuilder().setJob(hi).addPreemptable(7).addPreemptable(8);
        for (long id : suspendable) {
            q.addSuspendable(id);
        }
        return PlacePreemptingRequest.newBuilder().addQueries(q).build();
    }

    @Test
    void placePreempting_aSuspendedVictimKeepsItsGpu_soThePreemptorGoesWhereAGpuIsFree() {
        var suspending = ScheduleAnswers.placePreempting(gpuHeldOnN1(), gpuQuery(7, 8)).getResults(0);
        assertEquals(List.of(8L), suspending.getVictimsList(), "job 7 suspended on n1 still holds n1's only GPU");
        assertEquals("n2", suspending.getPlacement().getNodes(0).getNode());

        var ending = ScheduleAnswers.placePreempting(gpuHeldOnN1(), gpuQuery()).getResults(0);
        assertEquals(List.of(7L), ending.getVictimsList(), "ended, job 7 frees n1 whole: the first candidate");
    }

    @Test
    void placePreempting_aPreemptorNeedingTheSuspendedVictimsGpu_isPlacedWithTheVictimFreedWhole() {
        ReplicaView onlyN1 = DomainCluster.consTres("CR_Core").nodes("n", 1, 2, 0).gres("n1", "gpu:1")
                .partition("low", "n1").partition("hi", "n1").runningWithGres(7, "low", "n1", 2, 1).view();
        ResourceRequest hi = job(9, "hi", 1, 2).toBuilder()
                .addGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu").setCount(1)).build();
        var result = ScheduleAnswers.placePreempting(onlyN1, PlacePreemptingRequest.newBuilder().addQueries(
                PreemptionQuery.newBuilder().setJob(hi).addPreemptable(7).addSuspendable(7)).build()).getResults(0);

        assertTrue(result.getPlacement().getStartNow(), "the controller escalates the victim (its GPU is needed)");
        assertEquals(List.of(7L), result.getVictimsList());
        assertEquals(1, result.getPlacement().getNodes(0).getGres(0).getCount());
    }

    @Test
    void earliestStarts_aBusyNodeIsReservedFromTheRunningJobsEnd() {
        ReplicaView view = DomainCluster.consTres("CR_Core").nodes("n", 1, 2, 0).partition("p", "n1")
                .running(5, "p", 2, 0, T0.plusSeconds(100), "n1").view();
        var request = EarliestStartsRequest.newBuilder().addJobs(job(6, "p", 1, 2))
                .setNow(Timestamp.newBuilder().setSeconds(T0.getEpochSecond())).build();

        var reservation = ScheduleAnswers.earliestStarts(PlacementPlanner.standard(), view, request, Instant.EPOCH)
                .getReservations(0);

        assertEquals(T0.plusSeconds(100).getEpochSecond(), reservation.getStartTime().getSeconds());
        assertEquals("n1", reservation.getNodes(0).getNode());
        assertEquals("p", reservation.getPartition());
    }

    @Test
    void earliestStarts_saysForEachJobWhetherItHoldsItsStart() {
        ReplicaView view = DomainCluster.consTres("CR_Core").nodes("n", 1, 2, 0).partition("p", "n1")
                .running(5, "p", 2, 0, T0.plusSeconds(100), "n1").view();
        var request = EarliestStartsRequest.newBuilder()
                .addJobs(job(6, "p", 1, 2)).addJobs(job(7, "p", 1, 2)).addJobs(job(8, "p", 1, 2)).addJobs(job(9, "p", 1, 2))
                .setNow(Timestamp.newBuilder().setSeconds(T0.getEpochSecond()))
                .setReservationMode(ReservationMode.RESERVATION_MODE_EASY).addNoReserveJobIds(8).setMaxJobTest(3).build();

        var reply = ScheduleAnswers.earliestStarts(PlacementPlanner.standard(), view, request, Instant.EPOCH);

        assertEquals(List.of(BackfillOutcome.BACKFILL_OUTCOME_RESERVED, BackfillOutcome.BACKFILL_OUTCOME_ESTIMATED,
                BackfillOutcome.BACKFILL_OUTCOME_ESTIMATED, BackfillOutcome.BACKFILL_OUTCOME_NOT_TESTED),
                reply.getReservationsList().stream().map(Reservation::getOutcome).toList());
        assertEquals(List.of(NotHolding.NOT_HOLDING_UNSPECIFIED, NotHolding.NOT_HOLDING_EASY, NotHolding.NOT_HOLDING_NO_RESERVE,
                NotHolding.NOT_HOLDING_UNSPECIFIED), reply.getReservationsList().stream().map(Reservation::getNotHolding).toList());
        assertEquals(List.of(100L, 700L, 700L, 0L), reply.getReservationsList().stream()
                .map(r -> r.hasStartTime() ? r.getStartTime().getSeconds() - T0.getEpochSecond() : 0L).toList());
        assertEquals("Resources", reply.getReservations(1).getReason());
        assertEquals(3, reply.getTested());
    }

    @Test
    void earliestStarts_refusesANegativeParameter() {
        var request = EarliestStartsRequest.newBuilder().setResolutionSeconds(-1).build();
        var error = org.junit.jupiter.api.Assertions.assertThrows(io.grpc.StatusRuntimeException.class, () ->
                ScheduleAnswers.earliestStarts(PlacementPlanner.standard(), slurmExample(), request, Instant.EPOCH));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, error.getStatus().getCode());
        assertEquals("resolution_seconds must not be negative, got -1", error.getStatus().getDescription());
    }
}
