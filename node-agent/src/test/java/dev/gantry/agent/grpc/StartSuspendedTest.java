package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.process.LaunchPreparation;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Cgroups;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.SuspendJobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suspend that reaches the agent before or during the launch of the run it names leaves the job stopped from its
 * first instruction: the controller may suspend a job the moment it starts it (gang scheduling), and its SuspendJob can
 * overtake the LaunchJob or arrive while the launch is prepared. The job writes a line the moment it runs, so an empty
 * output file while it is suspended means that not one line of it ran.
 */
class StartSuspendedTest {

    private static final String WRITES_AT_ONCE = "#!/bin/bash\necho ran\nwhile :; do :; done\n";

    @TempDir
    Path tmp;

    AgentRig rig;

    static List<String> modes() {
        return Cgroups.modes();
    }

    private void start(String mode) {
        rig = new AgentRig(tmp, JobTelemetry.NONE, Cgroups.of(mode, tmp));
    }

    @AfterEach
    void stop() {
        if (rig != null) {
            rig.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aSuspendBeforeTheLaunch_startsTheJobStopped_andItsResumeLetsItRun(String mode) {
        start(mode);
        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(80).setRestartCount(0).build());

        long pid = rig.launch(80, WRITES_AT_ONCE).getPid();

        assertNothingRuns(80, pid);
        rig.agent.resumeJob(ResumeJobRequest.newBuilder().setJobId(80).setRestartCount(0).build());
        rig.awaitOutput(80, "ran");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aSuspendWhileTheLaunchIsPrepared_startsTheJobStopped(String mode) {
        start(mode);
        LaunchJobRequest request = rig.signed(rig.request(81, WRITES_AT_ONCE).build());
        LaunchPreparation prepared = rig.supervisor.prepare(request, true);

        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(81).setRestartCount(0).build());
        long pid = assertInstanceOf(LaunchOutcome.Started.class, prepared.go()).pid();

        assertNothingRuns(81, pid);
        rig.agent.resumeJob(ResumeJobRequest.newBuilder().setJobId(81).setRestartCount(0).build());
        rig.awaitOutput(81, "ran");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aResumeAfterAnEarlySuspend_letsTheJobStartRunning(String mode) {
        start(mode);
        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(82).setRestartCount(0).build());
        rig.agent.resumeJob(ResumeJobRequest.newBuilder().setJobId(82).setRestartCount(0).build());

        rig.launch(82, WRITES_AT_ONCE);

        rig.awaitOutput(82, "ran");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aSuspendForAnotherRun_doesNotStopThisOne(String mode) {
        start(mode);
        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(83).setRestartCount(1).build());

        rig.launch(83, WRITES_AT_ONCE);  // run 0

        rig.awaitOutput(83, "ran");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void anEarlySuspendIsForgottenWhenTheJobIsTerminated(String mode) {
        start(mode);
        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(84).setRestartCount(0).build());
        rig.terminate(84, 1);  // cancelled before its launch came: a later launch of it is refused anyway

        assertTrue(rig.supervisor.runningJobIds().isEmpty());
    }

    /** The job is in the table, its processes stopped, and its output empty for a second. */
    private void assertNothingRuns(long jobId, long pid) {
        Await.until("every process of job " + jobId + " stopped", () -> !ProcFs.group(pid).isEmpty()
                && ProcFs.group(pid).stream().allMatch(p -> p.state() == 'T' || frozen(pid)));
        Await.pause(1000);
        assertEquals("", output(jobId), "job " + jobId + " ran while suspended");
        assertTrue(rig.supervisor.runningJobIds().contains(jobId));
    }

    /** cgroup v2: the job's cgroup reports itself frozen (its tasks then show D or S, not T). */
    private boolean frozen(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
                if (line.startsWith("0::")) {
                    Path events = Path.of("/sys/fs/cgroup/unified" + line.substring(3), "cgroup.events");
                    Path pure = Path.of("/sys/fs/cgroup" + line.substring(3), "cgroup.events");
                    Path file = Files.exists(events) ? events : pure;
                    return Files.exists(file) && Files.readString(file).contains("frozen 1");
                }
            }
        } catch (java.io.IOException e) {
            return false;
        }
        return false;
    }

    private String output(long jobId) {
        Path out = rig.outputOf(jobId);
        return Files.exists(out) ? AgentRig.read(out) : "";
    }
}
