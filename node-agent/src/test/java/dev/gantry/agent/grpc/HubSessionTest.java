package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.node.Hardware;
import dev.gantry.agent.node.HubLink;
import dev.gantry.agent.node.NodeIdentity;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.FakeAgentHub;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RunningJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.gantry.agent.process.UsageSample;
import dev.gantry.api.v1.JobUsage;

/** Registration and heartbeat against a fake AgentHub. */
class HubSessionTest {

    private static final Instant BOOT = Instant.parse("2026-11-22T05:00:00Z");

    private final FakeAgentHub hub = new FakeAgentHub();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final HubSession session = new HubSession(hub.stub(),
            new NodeIdentity("n7", "127.0.0.1:6820", "127.0.0.1:6821", new Hardware(8, 2, 2, 2, 16000), BOOT, "test"),
            () -> List.of(new JobRun(5, 2), new JobRun(9, JobRun.UNKNOWN)),
            () -> List.of(new UsageSample(5, "debug", 12.5, 2048, 1024, 2), new UsageSample(9, "debug", 0, 0, 0)), scheduler,
            new HubLink(new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)), Duration.ofSeconds(30)),
            Duration.ofSeconds(5));

    @AfterEach
    void stop() {
        session.close();
        scheduler.shutdownNow();
        hub.close();
    }

    @Test
    void registers_thenHeartbeatsWithItsRunningJobs() {
        session.start();

        Await.until("two heartbeats", () -> hub.heartbeats.size() >= 2);
        RegisterNodeRequest r = hub.registrations.get(0);
        assertEquals("n7", r.getNode());
        assertEquals("127.0.0.1:6820", r.getAgentAddress());
        assertEquals("127.0.0.1:6821", r.getStepAddress());
        assertEquals(8, r.getHardware().getCpus());
        assertEquals(2, r.getHardware().getSockets());
        assertEquals(2, r.getHardware().getCoresPerSocket());
        assertEquals(2, r.getHardware().getThreadsPerCore());
        assertEquals(16000, r.getHardware().getRealMemoryMb());
        assertEquals(List.of(5L, 9L), r.getRunningJobIdsList());
        assertEquals(BOOT.getEpochSecond(), r.getBootTime().getSeconds());
        assertEquals(List.of(RunningJob.newBuilder().setJobId(5).setRestartCount(2).build()), r.getRunningJobsList(),
                "the runs beside the ids; a run not known is not named");
        assertEquals(List.of(5L, 9L), hub.heartbeats.get(0).getRunningJobIdsList());
        assertEquals(r.getRunningJobsList(), hub.heartbeats.get(0).getRunningJobsList());
        assertEquals("n7", hub.heartbeats.get(0).getNode());
        assertEquals(JobUsage.newBuilder().setJobId(5).setCpuSeconds(12.5).setMaxRssKb(2048).setRssKb(1024).setRestartCount(2).build(),
                hub.heartbeats.get(0).getJobUsage(0), "usage so far travels with each heartbeat, naming its run");
        assertTrue(!hub.heartbeats.get(0).getJobUsage(1).hasRestartCount(), "a run not known is not named");
        assertEquals(1, hub.registrations.size(), "no re-registration while the epoch stays");
        assertEquals(Optional.of("epoch-1"), session.controllerEpoch());
    }

    @Test
    void registersAgain_whenTheControllerEpochChanges() {
        session.start();
        Await.until("first heartbeat", () -> hub.heartbeats.size() >= 1);

        hub.epoch("epoch-2");

        Await.until("a second registration", () -> hub.registrations.size() >= 2);
        Await.until("registered with the new epoch", () -> session.controllerEpoch().equals(Optional.of("epoch-2")));
        int heartbeats = hub.heartbeats.size();
        Await.until("heartbeats continue", () -> hub.heartbeats.size() > heartbeats);
    }

    @Test
    void keepsRetrying_whileTheControllerIsUnreachable() {
        hub.down(true);
        session.start();

        Await.until("several attempts", () -> hub.registerAttempts.get() >= 4);
        assertTrue(hub.registrations.isEmpty());
        assertEquals(Optional.empty(), session.controllerEpoch());

        hub.down(false);

        Await.until("registered once reachable", () -> session.controllerEpoch().isPresent());
        assertEquals(1, hub.registrations.size());
    }

    @Test
    void registersAgain_afterAFailedHeartbeat() {
        session.start();
        Await.until("first heartbeat", () -> hub.heartbeats.size() >= 1);

        hub.down(true);
        Await.until("link lost", () -> session.controllerEpoch().isEmpty());
        hub.down(false);

        Await.until("registered again", () -> hub.registrations.size() >= 2);
    }

    @Test
    void aNudgeHeartbeatsAtOnce_andARestartedControllerIsRegisteredWithInAMomentNotAtTheNextInterval() throws Exception {
        hub.heartbeatInterval(600);
        session.start();
        Await.until("registered", () -> session.controllerEpoch().isPresent());
        Thread.sleep(300);
        assertEquals(0, hub.heartbeats.size(), "the next heartbeat is ten minutes away");

        hub.epoch("epoch-2"); // the controller restarted
        session.nudge(); // the agent saw its connection go and come back

        Await.until("registered with the new controller", () -> session.controllerEpoch().equals(Optional.of("epoch-2")));
        assertEquals(1, hub.heartbeats.size(), "one heartbeat, at once, found the new epoch");
        assertEquals(2, hub.registrations.size());
        session.nudge();
        Await.until("a second nudge: one more heartbeat", () -> hub.heartbeats.size() == 2);
        Thread.sleep(300);
        assertEquals(2, hub.heartbeats.size(), "no second chain of calls: one heartbeat per nudge, then the interval");
        assertEquals(2, hub.registrations.size());
    }
}
