package dev.gantry.scheduler.api;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.job.PendingReason;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobProtosTest {

    @Test
    void theStoredFormRoundTrips_pendingRunningAndFinished() {
        JobRecord pending = aJob(7).nodes(2).tasks(4).cpusPerTask(2).mem(512).build();
        JobRecord running = pending.toBuilder().state(JobState.RUNNING, T0.plusSeconds(1))
                .allocation(List.of(new NodeShare("n1", 4, 512), new NodeShare("n2", 4, 512))).startTime(T0.plusSeconds(1)).build();
        JobRecord done = running.toBuilder().state(JobState.FAILED, T0.plusSeconds(9)).endTime(T0.plusSeconds(9))
                .exit(3, 0).endNote("NonZeroExitCode").build();
        for (JobRecord j : List.of(pending, running, done)) {
            assertEquals(j, JobProtos.fromProto(JobProtos.toProto(j)), j.state().name());
        }
    }

    @Test
    void thePhase_isStateAndCompletingAsOneValue_inEveryView() {
        JobRecord pending = aJob(7).build();
        JobRecord running = pending.toBuilder().state(JobState.RUNNING, T0).allocation(List.of(new NodeShare("n1", 1, 0)))
                .startTime(T0).build();
        JobRecord suspended = running.toBuilder().state(JobState.SUSPENDED, T0.plusSeconds(1)).build();
        JobRecord requeued = running.toBuilder().state(JobState.PENDING, T0.plusSeconds(2)).completing(true).build();
        JobRecord ending = running.toBuilder().state(JobState.CANCELLED, T0.plusSeconds(3)).endTime(T0.plusSeconds(3))
                .completing(true).build();
        JobRecord over = ending.toBuilder().completing(false).build();
        var phases = List.of(dev.gantry.api.v1.JobPhase.JOB_PHASE_PENDING, dev.gantry.api.v1.JobPhase.JOB_PHASE_RUNNING,
                dev.gantry.api.v1.JobPhase.JOB_PHASE_SUSPENDED, dev.gantry.api.v1.JobPhase.JOB_PHASE_PENDING,
                dev.gantry.api.v1.JobPhase.JOB_PHASE_COMPLETING, dev.gantry.api.v1.JobPhase.JOB_PHASE_FINISHED);
        List<JobRecord> jobs = List.of(pending, running, suspended, requeued, ending, over);
        for (var view : dev.gantry.api.v1.JobView.values()) {
            if (view == dev.gantry.api.v1.JobView.UNRECOGNIZED) {
                continue;
            }
            assertEquals(phases, jobs.stream().map(j -> JobProtos.answer(j, T0.plusSeconds(9), view).getPhase()).toList(),
                    view.name());
        }
    }

    @Test
    void theStoredFormKeepsTheBackfillPreemptableMark_whileTheRunLasts() {
        JobRecord marked = aJob(7).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 1, 0))).startTime(T0).backfillPreemptable(true).build();
        JobRecord back = JobProtos.fromProto(JobProtos.toProto(marked));
        assertEquals(marked, back);
        org.junit.jupiter.api.Assertions.assertTrue(back.backfillPreemptable());
        JobRecord requeued = marked.toBuilder().state(JobState.PENDING, T0.plusSeconds(5)).completing(true).build();
        org.junit.jupiter.api.Assertions.assertFalse(JobProtos.toProto(requeued).getBackfillPreemptable());
    }

    @Test
    void theStoredFormRoundTrips_everyResourceField() {
        NodeSelection selection = new NodeSelection(List.of(new GresSpec("gpu", "a100", 2), new GresSpec("mps", "", 10)),
                true, "[rack1|rack2]&ib", List.of("n1", "n2"), List.of("n4"), true, true);
        JobRecord pending = new JobRecord(8, Fixtures.aRequest().build(), "job8", "alice", 1000, 1000, List.of("debug"),
                new ResourceAsk(2, 3, 4, 2, 0, 2, 512, selection), 3600, JobState.PENDING, false, PendingReason.NONE, "debug",
                List.of(), T0, null, null, T0, 0, 0, 100, JobControls.NONE, null, 0);
        JobRecord running = pending.toBuilder().state(JobState.RUNNING, T0).startTime(T0).allocation(List.of(
                new NodeShare("n1", 4, 2048, List.of(0, 1), List.of(new GresGrant("gpu", "a100", 2, List.of(0, 1)))),
                new NodeShare("n2", 4, 2048, List.of(2, 3), List.of(new GresGrant("gpu", "a100", 2, List.of()))))).build();
        for (JobRecord j : List.of(pending, running)) {
            assertEquals(j, JobProtos.fromProto(JobProtos.toProto(j)), j.state().name());
        }
        var p = JobProtos.toProto(running);
        assertEquals(List.of("n1", "n2"), p.getReqNodesList());
        assertEquals(512, p.getMemPerCpuMb());
        assertEquals(List.of(0, 1), p.getAllocation(0).getCoreIdsList());
    }

    @Test
    void apiShowsHostListsAndExpectedEnd() {
        JobRecord running = aJob(7).nodes(2).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 1, 0), new NodeShare("n2", 1, 0))).startTime(T0).build();
        var p = JobProtos.toProto(running);
        assertEquals("n[1-2]", p.getNodeList());
        assertEquals("n1", p.getBatchHost());
        assertEquals(T0.plusSeconds(3600).getEpochSecond(), p.getEndTime().getSeconds());
    }

    @Test
    void theStoredFormRoundTrips_everyControlAndTheSuspendedTime() {
        JobControls controls = new JobControls("physics", "high", 5, false, 2, JobControls.Hold.ADMIN,
                T0.plusSeconds(600), "afterok:7", 40, 3, "0-9%2", 2, true);
        JobRecord j = new JobRecord(43, Fixtures.aRequest().build(), "job43", "alice", 1000, 1000, List.of("debug"),
                new ResourceAsk(1, 1, 1, 1, 0), 3600, JobState.PENDING, false, PendingReason.HELD_ADMIN, "debug", List.of(), T0,
                null, null, T0, 0, 0, 0, controls, null, 75);
        assertEquals(j, JobProtos.fromProto(JobProtos.toProto(j)));
        var p = JobProtos.toProto(j);
        assertEquals(T0.plusSeconds(600).getEpochSecond(), p.getEligibleTime().getSeconds()); // --begin
        assertEquals(3, p.getArrayTaskId());
        assertEquals(dev.gantry.api.v1.JobHold.JOB_HOLD_ADMIN, p.getHold());
    }

    @Test
    void aPendingJobsForecast_isItsStartTimeAndSchedNodeList() {
        JobRecord j = Fixtures.aJob(5).build().toBuilder()
                .forecast(new dev.gantry.scheduler.model.Forecast(T0.plusSeconds(90), List.of("n1", "n2"), true)).build();
        var p = JobProtos.toProto(j);
        assertEquals(T0.plusSeconds(90).getEpochSecond(), p.getStartTime().getSeconds());
        assertEquals("n[1-2]", p.getSchedNodeList());
        JobRecord back = JobProtos.fromProto(p);
        assertEquals(null, back.startTime()); // a forecast is not a start
        assertEquals(List.of("n1", "n2"), back.forecast().nodes());
    }

    @Test
    void aPendingJobsForecast_endsItsTimeLimitAfterItsStart_onTheNodesItExpects() {
        // Slurm: StartTime=<estimate> EndTime=<estimate + limit>, NumNodes the nodes backfill expects it on
        JobRecord j = Fixtures.aJob(5).nodes(1).build().toBuilder().timeLimitSeconds(600)
                .forecast(new dev.gantry.scheduler.model.Forecast(T0.plusSeconds(90), List.of("n1", "n2"), true)).build();
        var p = JobProtos.toProto(j);
        assertEquals(T0.plusSeconds(690).getEpochSecond(), p.getEndTime().getSeconds());
        assertEquals(2, p.getNumNodes());
        assertEquals(1, p.getMinNodes());
        var unlimited = JobProtos.toProto(j.toBuilder().timeLimitSeconds(-1).build());
        assertEquals(false, unlimited.hasEndTime(), "no end without a limit (scontrol: EndTime=Unknown)");
        assertEquals(false, JobProtos.toProto(j.toBuilder().forecast(null).build()).hasEndTime());
    }

    @Test
    void theStoredFormKeepsWhichPassStartedTheRun() {
        JobRecord started = aJob(7).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 1, 0))).startTime(T0).startedByBackfill(true).build();
        JobRecord back = JobProtos.fromProto(JobProtos.toProto(started));
        assertEquals(started, back);
        org.junit.jupiter.api.Assertions.assertTrue(back.startedByBackfill());
    }

    @ParameterizedTest(name = "{0} stored with Reason={1}: pending reason {2}, end note \"{3}\"")
    @CsvSource(delimiter = '|', value = {
        "PENDING|Priority|PRIORITY|''", "PENDING|PreemptMaxVictims|PREEMPT_MAX_VICTIMS|''",
        "PENDING|None|NONE|''", "PENDING|''|NONE|''",
        "PENDING|SomeFutureReason|NONE|''", // another version's name: None until the next pass gives the job one
        "RUNNING|None|NONE|''", "SUSPENDED|Preempted by job 12|NONE|Preempted by job 12",
        "FAILED|NonZeroExitCode|NONE|NonZeroExitCode", "NODE_FAIL|launch failed: node n3: refused|NONE|launch failed: node n3: refused",
        "TIMEOUT|TimeLimit|NONE|TimeLimit", "COMPLETED|None|NONE|''", "CANCELLED|''|NONE|''"})
    void aStoredReason_isThePendingReasonOfAPendingJob_andTheEndNoteOfAnyOther(JobState state, String stored,
            PendingReason pending, String endNote) {
        JobRecord j = aJob(7).build().toBuilder().state(state, T0).build();
        JobRecord back = JobProtos.fromProto(JobProtos.toProto(j).toBuilder().setReason(stored).build());
        assertEquals(pending, back.pendingReason());
        assertEquals(endNote, back.endNote());
        if (!stored.equals("SomeFutureReason")) {
            assertEquals(stored.isEmpty() ? "None" : stored, JobProtos.toProto(back).getReason(), "shown and stored as before");
        }
    }
}
