package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs have identities on the agent: a job's run is its restart count. A launch of the next run while the earlier one
 * is still being killed here kills what is left of the earlier run, reports its exit as its own, then runs the new
 * one; a signal or terminate for another run than the one here leaves it alone; exit reports name their run.
 */
class RunIdentityTest extends OnAgentRig {

    /** Ignores SIGTERM, so that a terminate with a long kill wait leaves it dying until SIGKILL. */
    static final String STUBBORN = """
            #!/bin/bash
            trap '' TERM
            sleep 600 &
            echo ready
            sleep 600
            """;

    long launchRun(long jobId, int run, String script) {
        return rig.agent.launchJob(rig.request(jobId, script).setRestartCount(run).build()).getPid();
    }

    boolean terminateRun(long jobId, int run, long killWaitSeconds) {
        return rig.agent.terminateJob(TerminateJobRequest.newBuilder().setJobId(jobId).setRestartCount(run)
                .setKillWaitSeconds(killWaitSeconds).setReason("requeued").build()).getWasRunning();
    }

    List<ReportJobExitRequest> exitsOf(long jobId) {
        return rig.hub.exits.stream().filter(e -> e.getJobId() == jobId).toList();
    }

    @Test
    void theNextRun_launchedWhileTheEarlierIsStillDying_killsItFirst_thenRuns_andEachExitNamesItsRun() {
        long firstPid = launchRun(90, 0, STUBBORN);
        rig.awaitOutput(90, "ready");
        Await.until("script and both sleeps run in the job's group", () -> ProcFs.group(firstPid).size() >= 3);
        assertTrue(terminateRun(90, 0, 600), "run 0 is being killed, SIGKILL only in 10 minutes");

        long secondPid = launchRun(90, 1, "#!/bin/bash\necho second run\nsleep 1\nexit 3\n");

        assertTrue(ProcFs.group(firstPid).isEmpty(), "nothing of run 0 is left once run 1 is launched");
        ReportJobExitRequest first = Await.value("run 0's exit report", () -> exitsOf(90).isEmpty() ? null : exitsOf(90).get(0));
        assertEquals(0, first.getRestartCount(), "run 0's exit names run 0");
        assertTrue(first.hasRestartCount());
        assertEquals(9, first.getExitSignal(), "killed");
        assertTrue(secondPid > 0);
        Await.until("run 1 ends", () -> exitsOf(90).size() == 2);
        ReportJobExitRequest second = exitsOf(90).get(1);
        assertEquals(1, second.getRestartCount());
        assertEquals(3, second.getExitCode());
    }

    @Test
    void theNextRunsCredential_issuedBeforeTheTerminateOfTheRunHereArrived_isNotRefused() {
        long firstPid = launchRun(94, 0, STUBBORN);
        rig.awaitOutput(94, "ready");
        // the controller places the requeued job here again (run 1's credential is issued) while its terminate of
        // run 0, sent as the node registered again, is still on its way
        var next = rig.signed(rig.request(94, "#!/bin/bash\necho second run\nexit 0\n").setRestartCount(1).build());
        assertTrue(terminateRun(94, 0, 600), "run 0 is here: it is being killed");

        long secondPid = rig.agent.launchJob(next).getPid();

        assertTrue(secondPid > 0, "run 1 runs");
        assertTrue(ProcFs.group(firstPid).isEmpty(), "nothing of run 0 is left");
        Await.until("both runs reported", () -> exitsOf(94).size() == 2);
        assertEquals(0, exitsOf(94).get(1).getExitCode());
        assertEquals(1, exitsOf(94).get(1).getRestartCount());
    }

    @Test
    void aTerminateArrivingBeforeItsRunsLaunch_stillRefusesThatLaunch() {
        var late = rig.signed(rig.request(95, "#!/bin/bash\nexit 0\n").setRestartCount(2).build());
        assertFalse(terminateRun(95, 2, 0), "scancel before the launch got here");

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.agent.launchJob(late));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
    }

    @Test
    void aStubbornEarlierRun_stillRunning_isKilledForTheNextRun_too() {
        long firstPid = launchRun(91, 2, STUBBORN);
        rig.awaitOutput(91, "ready");

        launchRun(91, 3, "#!/bin/bash\nexit 0\n");

        assertTrue(ProcFs.group(firstPid).isEmpty());
        assertEquals(2, Await.value("run 2's exit report", () -> exitsOf(91).isEmpty() ? null : exitsOf(91).get(0)).getRestartCount());
        Await.until("run 3 ends", () -> exitsOf(91).size() == 2);
        assertEquals(3, exitsOf(91).get(1).getRestartCount());
    }

    @Test
    void theSameRunLaunchedTwice_isStillRefused() {
        launchRun(92, 1, STUBBORN);
        rig.awaitOutput(92, "ready");

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> launchRun(92, 1, STUBBORN));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(exitsOf(92).isEmpty(), "the running run is left alone");
        rig.terminate(92, 0);
    }

    @Test
    void aTerminateOrSignalForAnotherRun_leavesTheRunHereAlone() {
        long pid = launchRun(93, 4, "#!/bin/bash\ntrap 'echo got USR1' USR1\necho ready\nwhile true; do sleep 0.1; done\n");
        rig.awaitOutput(93, "ready");

        assertFalse(terminateRun(93, 3, 0), "a late terminate of run 3: not running here");
        assertFalse(terminateRun(93, 9, 0), "nor of run 9");
        rig.agent.signalJob(SignalJobRequest.newBuilder().setJobId(93).setRestartCount(3).setSignal(10).build());
        rig.agent.signalJob(SignalJobRequest.newBuilder().setJobId(93).setRestartCount(4).setSignal(10).build());

        rig.awaitOutput(93, "got USR1");
        assertEquals(1, AgentRig.read(rig.outputOf(93)).split("got USR1", -1).length - 1, "only run 4's signal came");
        assertFalse(ProcFs.group(pid).isEmpty(), "run 4 still runs");
        assertTrue(exitsOf(93).isEmpty());
        assertTrue(terminateRun(93, 4, 0), "its own terminate ends it");
        assertEquals(4, rig.awaitExit(93).getRestartCount());
    }
}
