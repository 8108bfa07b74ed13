package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The kill sequence and the end of a job: SIGTERM, SIGKILL after the kill wait, nothing of the group left. */
class TerminateJobTest extends OnAgentRig {

    @Test
    void terminate_deliversSigterm_scriptThatTrapsItExitsCleanly() {
        rig.launch(60, """
                #!/bin/bash
                trap 'echo "got TERM"; exit 0' TERM
                echo ready
                sleep 600 &
                wait $!
                """);
        rig.awaitOutput(60, "ready");

        rig.terminate(60, 30);

        ReportJobExitRequest exit = rig.awaitExit(60);
        assertTrue(AgentRig.read(rig.outputOf(60)).contains("got TERM"));
        assertEquals(0, exit.getExitCode());
        assertEquals(0, exit.getExitSignal());
        assertEquals("cancelled", exit.getReason());
    }

    @Test
    void terminate_scriptIgnoringSigterm_isKilledAfterKillWait_withNothingOfItsGroupLeft() {
        long pid = rig.launch(61, """
                #!/bin/bash
                trap '' TERM
                sleep 600 &
                echo ready
                sleep 600
                """).getPid();
        rig.awaitOutput(61, "ready");
        // "ready" comes before the script forks its second sleep
        Await.until("script and both sleeps run in the job's group", () -> ProcFs.group(pid).size() >= 3);

        rig.terminate(61, 1);

        ReportJobExitRequest exit = rig.awaitExit(61);
        assertEquals(9, exit.getExitSignal());
        assertEquals(0, exit.getExitCode());
        assertTrue(ProcFs.group(pid).isEmpty(), "no live process of group " + pid + " is left");
    }

    @Test
    void scriptExit_killsWhatItLeftBehindInItsGroup_beforeReporting() {
        long pid = rig.launch(62, "#!/bin/bash\nsleep 600 &\necho started\nexit 5\n").getPid();

        ReportJobExitRequest exit = rig.awaitExit(62);

        assertEquals(5, exit.getExitCode());
        assertTrue(ProcFs.group(pid).isEmpty(), "the background sleep was killed");
    }

    @Test
    void terminate_whileTheLaunchIsStillStarting_killsTheJobOnceItRuns() throws Exception {
        Path fifo = rig.workDir.resolve("out.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        ExecutorService threads = Executors.newCachedThreadPool(Thread.ofPlatform().daemon(true).factory());
        try {
            Future<LaunchJobResponse> launch = threads.submit(() ->
                    rig.agent.launchJob(rig.request(65, "#!/bin/bash\nsleep 600\n").setStdoutPath(fifo.toString()).build()));
            Await.until("job 65 is starting (opening its output blocks until the FIFO has a reader)",
                    () -> rig.supervisor.runningJobIds().contains(65L));

            boolean wasRunning = rig.agent.terminateJob(TerminateJobRequest.newBuilder().setJobId(65).setKillWaitSeconds(30).setReason("cancelled").build()).getWasRunning();
            threads.submit(() -> drainForever(fifo));

            long pid = launch.get(60, TimeUnit.SECONDS).getPid();
            ReportJobExitRequest exit = rig.awaitExit(65);
            assertTrue(wasRunning);
            assertEquals(15, exit.getExitSignal(), "SIGTERM as soon as it ran");
            assertEquals("cancelled", exit.getReason());
            assertTrue(ProcFs.group(pid).isEmpty());
        } finally {
            threads.shutdownNow();
        }
    }

    /** Keeps the FIFO open for reading: every writer's open succeeds, and what they write is discarded. */
    private static Void drainForever(Path fifo) throws IOException {
        while (!Thread.currentThread().isInterrupted()) {
            try (InputStream in = Files.newInputStream(fifo)) {
                in.transferTo(OutputStream.nullOutputStream());
            }
        }
        return null;
    }

    @Test
    void exitReport_carriesSampledCpuTimeAndMemory() {
        rig.launch(64, "#!/bin/bash\nwhile :; do :; done\n");
        Await.until("CPU time and memory sampled", () -> rig.supervisor.usage(64)
                .filter(u -> u.cpuSeconds() > 0 && u.rssKb() > 0).isPresent());
        double sampled = rig.supervisor.usage(64).orElseThrow().cpuSeconds();

        rig.terminate(64, 30);

        ReportJobExitRequest exit = rig.awaitExit(64);
        assertTrue(exit.getCpuSeconds() >= sampled, exit.getCpuSeconds() + " >= " + sampled);
        assertTrue(exit.getMaxRssKb() > 0);
    }

    @Test
    void terminate_isIdempotent_andSaysWhetherTheJobWasRunning() throws Exception {
        // the script's TERM trap keeps the job alive until the test has asked twice: a plain `sleep` died of the
        // first SIGTERM, and on a loaded machine the job could be gone before the second call
        Path proceed = rig.workDir.resolve("proceed-63");
        rig.launch(63, "#!/bin/bash\ntrap 'echo got TERM; until [ -e " + proceed + " ]; do sleep 0.05; done; exit 143' TERM\n"
                + "echo ready\nsleep 600 & wait\n");
        rig.awaitOutput(63, "ready");
        TerminateJobRequest request = TerminateJobRequest.newBuilder().setJobId(63).setKillWaitSeconds(30).setReason("timeout").build();

        boolean first = rig.agent.terminateJob(request).getWasRunning();
        boolean second = rig.agent.terminateJob(request).getWasRunning();
        Files.writeString(proceed, "");
        ReportJobExitRequest exit = rig.awaitExit(63);
        // the exit is reported just before the job leaves the table
        Await.until("job 63 out of the table", () -> !rig.supervisor.runningJobIds().contains(63L));
        boolean afterEnd = rig.agent.terminateJob(request).getWasRunning();

        assertTrue(first);
        assertTrue(second);
        assertFalse(afterEnd);
        assertEquals(15, exit.getExitSignal(), "the kill sequence's SIGTERM ended it (its trap exits 128+15), not a SIGKILL: " + exit);
        assertTrue(AgentRig.read(rig.outputOf(63)).contains("got TERM"));
        assertEquals(1, rig.hub.exits.stream().filter(e -> e.getJobId() == 63).count(), "reported once");
    }
}
