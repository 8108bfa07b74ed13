package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.ExitReport;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.FakeAgentHub;
import dev.gantry.api.v1.ReportJobExitRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Exit reports are re-sent until the controller acknowledges them, several in flight at once while all goes well. */
class ExitReportSenderTest {

    private static final Instant START = Instant.parse("2026-11-22T05:00:00Z");

    private final FakeAgentHub hub = new FakeAgentHub();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExitReportSender sender = new ExitReportSender(hub.stub(), "n1", scheduler,
            new Backoff(Duration.ofMillis(10), Duration.ofMillis(50)), Duration.ofSeconds(5));

    @AfterEach
    void stop() {
        sender.close();
        scheduler.shutdownNow();
        hub.close();
    }

    @Test
    void report_carriesTheExit() {
        sender.jobEnded(new ExitReport(1, new ExitStatus(0, 9), "cancelled", 1.5, 2048, START, START.plusSeconds(3), false));

        Await.until("acknowledged", () -> hub.exits.size() == 1);
        ReportJobExitRequest r = hub.exits.get(0);
        assertEquals(1, r.getJobId());
        assertEquals("n1", r.getNode());
        assertEquals(0, r.getExitCode());
        assertEquals(9, r.getExitSignal());
        assertEquals("cancelled", r.getReason());
        assertEquals(1.5, r.getCpuSeconds());
        assertEquals(2048, r.getMaxRssKb());
        assertEquals(START.getEpochSecond(), r.getStartedAt().getSeconds());
        assertEquals(START.getEpochSecond() + 3, r.getEndedAt().getSeconds());
    }

    @Test
    void report_ofAJobKilledAtItsMemoryLimit_saysOutOfMemory() {
        sender.jobEnded(new ExitReport(2, new ExitStatus(0, 9), "", 0.1, 49152, START, START, true));

        Await.until("acknowledged", () -> hub.exits.size() == 1);
        assertEquals(true, hub.exits.get(0).getOutOfMemory());
    }

    @Test
    void reports_areResentUntilAcknowledged_theOldestAloneAfterAFailure() {
        hub.refuseNextReports(5);

        for (long id = 1; id <= 4; id++) {
            sender.jobEnded(new ExitReport(id, new ExitStatus((int) id, 0), "", 0, 0, START, START, false));
        }

        Await.until("all acknowledged", () -> hub.exits.size() == 4);
        assertEquals(Set.of(1L, 2L, 3L, 4L), hub.exits.stream().map(ReportJobExitRequest::getJobId).collect(Collectors.toSet()));
        assertEquals(1L, hub.exits.get(0).getJobId(), "after a failure the oldest goes alone until acknowledged");
        assertTrue(hub.reportAttempts.size() >= 9, "5 refused attempts, then 4 acknowledged");
        // the hub records a report before its acknowledgement reaches the sender: wait for that too
        Await.until("nothing pending", () -> sender.pending().isEmpty());
    }

    @Test
    void reports_ofJobsEndingTogether_areInFlightTogether() {
        hub.holdReports(true); // answers nothing until released
        for (long id = 1; id <= 5; id++) {
            sender.jobEnded(new ExitReport(id, new ExitStatus(0, 0), "", 0, 0, START, START, false));
        }

        Await.until("several reports in flight at once", () -> hub.reportAttempts.size() >= 2);
        hub.holdReports(false);
        // at least once: a report held past its call deadline is sent again, and both copies may be acknowledged
        Await.until("all acknowledged", () -> hub.exits.stream().map(ReportJobExitRequest::getJobId).collect(Collectors.toSet())
                .equals(Set.of(1L, 2L, 3L, 4L, 5L)));
        Await.until("nothing pending", () -> sender.pending().isEmpty());
    }

    @Test
    void reports_waitWhileTheControllerIsDown_andArriveOnceItIsBack() {
        hub.down(true);
        sender.jobEnded(new ExitReport(7, new ExitStatus(0, 0), "", 0, 0, START, START, false));
        Await.until("a few refused attempts", () -> hub.reportAttempts.size() >= 3);
        assertEquals(List.of(7L), sender.pending());

        hub.down(false);

        Await.until("acknowledged", () -> hub.exits.size() == 1);
        Await.until("nothing pending", () -> sender.pending().isEmpty());
    }

    @Test
    void reportsWaitingForALongRetry_goAtOnce_whenTheControllerAnswersAgain() {
        ExitReportSender patient = new ExitReportSender(hub.stub(), "n1", scheduler,
                new Backoff(Duration.ofMinutes(10), Duration.ofMinutes(10)), Duration.ofSeconds(5));
        try {
            hub.down(true);
            patient.jobEnded(new ExitReport(8, new ExitStatus(0, 0), "", 0, 0, START, START, false));
            Await.until("the first attempt refused", () -> hub.reportAttempts.size() >= 1);
            hub.down(false);

            patient.controllerReachable(); // the agent registered again: no ten-minute wait

            Await.until("acknowledged", () -> hub.exits.size() == 1);
            assertEquals(8L, hub.exits.get(0).getJobId());
            Await.until("nothing pending", () -> patient.pending().isEmpty());
        } finally {
            patient.close();
        }
    }
}
