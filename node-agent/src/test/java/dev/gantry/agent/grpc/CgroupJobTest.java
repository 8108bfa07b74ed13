package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.process.CgroupContainment;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Cgroups;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.SuspendJobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs in their own cgroups, with real processes (skipped where this host lets no cgroup be created). */
class CgroupJobTest {

    private static final String BUSY_LOOP = "#!/bin/bash\nwhile :; do :; done\n";

    @TempDir
    Path tmp;

    final List<Integer> signals = new CopyOnWriteArrayList<>();
    final List<String> ooms = new CopyOnWriteArrayList<>();
    CgroupContainment cgroups;
    AgentRig rig;

    @BeforeEach
    void start() {
        cgroups = Cgroups.required(tmp);
        rig = new AgentRig(tmp, new JobTelemetry() {
            @Override
            public void launched(LaunchOutcome outcome, Duration startLatency) {}

            @Override
            public void signalled(int signal) {
                signals.add(signal);
            }

            @Override
            public void outOfMemory() {
                ooms.add("oom");
            }
        }, cgroups);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void suspend_freezesTheCgroup_cpuTimeStandsStill_andResumeThawsIt() {
        rig.launch(80, BUSY_LOOP);
        Path cg = Cgroups.unifiedJobDir(cgroups, 80);
        Await.until("the busy loop used some CPU", () -> Cgroups.keyed(cg.resolve("cpu.stat"), "usage_usec") > 0);

        rig.agent.suspendJob(SuspendJobRequest.newBuilder().setJobId(80).build());

        Await.until("cgroup.events says frozen 1", () -> Cgroups.keyed(cg.resolve("cgroup.events"), "frozen") == 1);
        // A task counts itself frozen just before it leaves the CPU, so the last few microseconds of the freeze can be
        // charged after "frozen 1" (CI once saw 11 us). Let that settle before the baseline.
        Await.pause(200);
        long frozenAt = Cgroups.keyed(cg.resolve("cpu.stat"), "usage_usec");
        Await.pause(1000);
        long grew = Cgroups.keyed(cg.resolve("cpu.stat"), "usage_usec") - frozenAt;
        // A busy loop that kept running would use about 1,000,000 us in that second.
        assertTrue(grew <= 1000, "no CPU time while frozen, but the cgroup used " + grew + " us in a second");

        rig.agent.resumeJob(ResumeJobRequest.newBuilder().setJobId(80).build());

        Await.until("cgroup.events says frozen 0", () -> Cgroups.keyed(cg.resolve("cgroup.events"), "frozen") == 0);
        Await.until("CPU time grows again", () -> Cgroups.keyed(cg.resolve("cpu.stat"), "usage_usec") > frozenAt);
    }

    @Test
    void jobOverItsMemoryLimit_isKilled_andEndsOutOfMemory() {
        assumeTrue(cgroups.layout().limitsMemory(), "no memory controller here");
        String script = "#!/bin/bash\necho start\nx=$(head -c 400000000 /dev/zero | tr '\\0' a)\necho survived ${#x}\n";

        rig.agent.launchJob(rig.request(81, script).setMemoryMb(48).build());
        ReportJobExitRequest exit = rig.awaitExit(81);

        assertTrue(exit.getOutOfMemory(), "reported out of memory: " + exit);
        assertFalse(AgentRig.read(rig.outputOf(81)).contains("survived"));
        // JobCompletion hands the exit to the sink before it tells the telemetry about the OOM kill
        Await.until("the OOM kill counted", () -> !ooms.isEmpty());
        assertEquals(List.of("oom"), ooms);
    }

    @Test
    void jobWithinItsMemoryLimit_isNotOutOfMemory_andReportsItsCpuAndMemory() {
        rig.agent.launchJob(rig.request(82, "#!/bin/bash\nx=$(head -c 20000000 /dev/zero | tr '\\0' a)\nsleep 1\necho ${#x}\n")
                .setMemoryMb(512).build());
        ReportJobExitRequest exit = rig.awaitExit(82);

        assertEquals(0, exit.getExitCode());
        assertFalse(exit.getOutOfMemory());
        assertTrue(exit.getCpuSeconds() > 0, "CPU seconds from the cgroup: " + exit);
        assertTrue(exit.getMaxRssKb() > 0, "max RSS sampled: " + exit);
    }

    @Test
    void processThatLeavesItsProcessGroup_staysInTheCgroup_andIsKilledWithTheJob() throws Exception {
        Path pidFile = rig.workDir.resolve("escaped.pid");
        rig.launch(83, "#!/bin/bash\nsetsid sleep 600 &\necho $! > " + pidFile + "\nexit 0\n");

        ReportJobExitRequest exit = rig.awaitExit(83);

        long escaped = Long.parseLong(Files.readString(pidFile).trim());
        assertEquals(0, exit.getExitCode());
        assertTrue(ProcFs.stat(escaped).filter(p -> p.isLive()).isEmpty(), "the setsid'd sleep was killed with its job");
        assertFalse(Files.exists(Cgroups.unifiedJobDir(cgroups, 83)), "the job's cgroup is removed once it is empty");
    }

    @Test
    void killSequence_sendsTermFirst_thenKillAfterKillWait_toAScriptThatTrapsTerm() {
        rig.launch(84, "#!/bin/bash\ntrap 'echo got TERM' TERM\necho ready\nwhile :; do sleep 0.1; done\n");
        rig.awaitOutput(84, "ready");

        rig.terminate(84, 1);
        ReportJobExitRequest exit = rig.awaitExit(84);

        assertTrue(AgentRig.read(rig.outputOf(84)).contains("got TERM"), "the script saw SIGTERM");
        assertEquals(9, exit.getExitSignal(), "SIGKILL ended it");
        assertEquals(15, signals.get(0), "TERM first: " + signals);
        assertEquals(9, signals.get(1), "then KILL once the kill wait was over: " + signals);
        assertTrue(signals.stream().skip(1).allMatch(s -> s == 9), "nothing but KILL after that (repeated for stragglers): " + signals);
    }
}
