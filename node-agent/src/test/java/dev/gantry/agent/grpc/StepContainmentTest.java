package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.process.ProcStat;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.agent.testing.FanoutRig;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.RunStepRequest;
import dev.gantry.api.v1.StepEvent;
import dev.gantry.api.v1.SuspendJobRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step's tasks are processes of their job under process-group containment too, although each leads a session
 * of its own: suspending the job stops them, resuming continues them, and the kill sequence reaches them before
 * the job's end is reported. (Under cgroups the
 * tasks join the job's cgroups instead.)
 */
class StepContainmentTest {

    private static final List<String> N1 = List.of("n1");
    private static final String BATCH = "#!/bin/sh\nsleep 600\n";

    @TempDir
    Path tmp;

    FanoutRig rig;

    @BeforeEach
    void start() {
        rig = new FanoutRig(tmp, 1, SiteScripts.NONE);
        assertEquals(ProcessGroupContainment.MODE, rig.node("n1").supervisor.containmentMode());
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void aStepTaskOfASuspendedJob_isStopped_andRunsAgainAfterResume() {
        rig.first().launchJob(rig.launch(30, BATCH, 50, N1, N1));
        Iterator<StepEvent> events = rig.stepAgent("n1").runStep(step(30, "echo $$; exec sleep 600"));
        long task = firstLine(events);

        rig.first().suspendJob(SuspendJobRequest.newBuilder().setJobId(30).build());
        Await.until("the step task stopped", () -> state(task) == 'T');

        rig.first().resumeJob(ResumeJobRequest.newBuilder().setJobId(30).build());
        Await.until("the step task running again", () -> state(task) != 'T');
        assertTrue(ProcFs.stat(task).map(ProcStat::isLive).orElse(false), "the step task still lives");
    }

    @Test
    void terminatingTheJob_signalsItsStepTasks_andKillsThemBeforeTheExitIsReported() {
        rig.first().launchJob(rig.launch(31, BATCH, 50, N1, N1));
        // the task survives SIGTERM (it only says so): only the SIGKILL of the kill sequence ends it
        Iterator<StepEvent> events = rig.stepAgent("n1").runStep(step(31,
                "trap 'echo got TERM' TERM; echo $$; while :; do sleep 600 & wait $!; done"));
        long task = firstLine(events);
        long startTicks = ProcFs.stat(task).orElseThrow().startTicks();

        rig.first().terminateJob(TerminateJobRequest.newBuilder().setJobId(31).setKillWaitSeconds(30).setReason("cancelled").build());
        Await.until("the exit of job 31 reported", () -> rig.node("n1").exitReported(31));

        assertFalse(ProcFs.isAlive(task, startTicks), "the step task was killed before the job's exit was reported");
        StringBuilder output = new StringBuilder();
        int exitCode = -1;
        while (events.hasNext()) {
            StepEvent e = events.next();
            if (e.hasOutput()) {
                output.append(e.getOutput().getData().toStringUtf8());
            } else {
                exitCode = e.getExit().getExitCode();
            }
        }
        assertTrue(output.toString().contains("got TERM"), "the kill sequence's SIGTERM reached the step task: " + output);
        assertEquals(128 + 9, exitCode, "then its SIGKILL");
    }

    /** A one-task step on n1 running {@code script} with sh. */
    private RunStepRequest step(long jobId, String script) {
        List<String> argv = List.of("sh", "-c", script);
        return RunStepRequest.newBuilder()
                .setCredential(Credentials.aCredential(rig.signer).job(jobId).nodes("n1").step("0", argv).sign())
                .setJobId(jobId).setStepId("0").addAllArgv(argv).setWorkDir(rig.workDir.toString())
                .putEnvironment("PATH", "/usr/bin:/bin").setNodeId(0).addTaskIds(0).setNumTasks(1)
                .addAllStepNodes(N1).build();
    }

    /** The pid the task printed first (its own, past setsid: it leads its group by then). */
    private static long firstLine(Iterator<StepEvent> events) {
        StringBuilder out = new StringBuilder();
        while (out.indexOf("\n") < 0) {
            StepEvent e = events.next();
            if (e.hasOutput()) {
                out.append(e.getOutput().getData().toStringUtf8());
            }
        }
        return Long.parseLong(out.substring(0, out.indexOf("\n")).strip());
    }

    private static char state(long pid) {
        return ProcFs.stat(pid).map(ProcStat::state).orElse('?');
    }
}
