package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.api.v1.SuspendJobRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;

/** SuspendJob, ResumeJob and SignalJob act on the job's whole process group. */
class SuspendResumeTest extends OnAgentRig {

    private static final String BUSY_LOOP = "#!/bin/bash\nwhile :; do :; done\n";

    @Test
    void suspend_stopsTheJobInPlace_andResumeContinuesIt() {
        long pid = rig.launch(70, BUSY_LOOP).getPid();
        Await.until("the busy loop used some CPU", () -> cpuTicks(pid) > 0);

        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(70).build());

        Await.until("every process of the job in state T", () -> ProcFs.group(pid).stream().allMatch(p -> p.state() == 'T'));
        // A task shows T just before it leaves the CPU, and the runtime since its last tick is charged when it does:
        // let that settle before the baseline.
        Await.pause(200);
        long stopped = cpuTicks(pid);
        Await.pause(1000);
        assertEquals(stopped, cpuTicks(pid), "no CPU time while stopped");
        assertTrue(ProcFs.group(pid).stream().allMatch(p -> p.state() == 'T'));

        rig.agent.resumeJob(ResumeJobRequest.newBuilder().setJobId(70).build());

        Await.until("CPU time grows again", () -> cpuTicks(pid) > stopped);
        assertTrue(ProcFs.group(pid).stream().noneMatch(p -> p.state() == 'T'));
    }

    @Test
    void signal_reachesTheScript() {
        rig.launch(71, """
                #!/bin/bash
                trap 'echo "got USR1"; exit 0' USR1
                echo ready
                sleep 600 &
                wait $!
                """);
        rig.awaitOutput(71, "ready");

        rig.agent.signalJob(SignalJobRequest.newBuilder().setJobId(71).setSignal(10).build());

        assertEquals(0, rig.awaitExit(71).getExitCode());
        assertTrue(AgentRig.read(rig.outputOf(71)).contains("got USR1"));
    }

    @Test
    void signal_outsideOneTo64_isInvalidArgument_andUnknownJobIsNotFound() {
        rig.launch(72, "#!/bin/bash\nsleep 600\n");

        for (int bad : new int[] {0, 65, -9}) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> rig.agent.signalJob(SignalJobRequest.newBuilder().setJobId(72).setSignal(bad).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), "signal " + bad);
        }
        StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.signalJob(SignalJobRequest.newBuilder().setJobId(999).setSignal(10).build()));
        assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    }

    /** CPU time of the job's live processes (its process group, led by {@code pid}). */
    private static long cpuTicks(long pid) {
        return ProcFs.group(pid).stream().mapToLong(s -> s.utime() + s.stime()).sum();
    }
}
