package dev.gantry.cli.supervision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.cli.supervision.ServiceWatch.State;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The supervisor's decisions for one service, on a clock the test moves. */
class ServiceWatchTest {

    private static final Instant T0 = Instant.parse("2026-11-27T22:00:00Z");
    private static final RestartPolicy POLICY = RestartPolicy.DEFAULT;
    private static final ExitStatus KILLED = ExitStatus.of(137);

    private Instant now = T0;

    private Instant after(Duration d) {
        now = now.plus(d);
        return now;
    }

    @Test
    void aCrash_waitsOneSecond_thenIsDueAndCountedAsARestart() {
        ServiceWatch w = ServiceWatch.started("gang", 100, now).exited(KILLED, after(Duration.ofSeconds(5)), POLICY);
        assertEquals(State.RESTARTING, w.state());
        assertEquals(Optional.of("killed by signal 9 (SIGKILL)"), w.lastExit());
        assertFalse(w.due(now.plusMillis(999)));
        assertTrue(w.due(now.plusSeconds(1)));

        ServiceWatch back = w.restarted(200, after(Duration.ofSeconds(1)));
        assertEquals(State.RUNNING, back.state());
        assertEquals(200, back.pid());
        assertEquals(1, back.restarts());
        assertEquals(Optional.of("killed by signal 9 (SIGKILL)"), back.lastExit(), "the last exit stays visible");
    }

    @Test
    void crashesInARow_doubleTheWait() {
        ServiceWatch w = ServiceWatch.started("select", 100, now);
        long[] waits = new long[5];
        for (int i = 0; i < 5; i++) {
            w = w.exited(KILLED, after(Duration.ofSeconds(2)), POLICY);
            waits[i] = Duration.between(now, w.restartAt().orElseThrow()).toSeconds();
            w = w.restarted(101 + i, after(Duration.ofSeconds(waits[i])));
        }
        assertEquals("[1, 2, 4, 8, 16]", java.util.Arrays.toString(waits));
        assertEquals(5, w.restarts());
    }

    @Test
    void aStableMinute_resetsTheWait() {
        ServiceWatch w = ServiceWatch.started("select", 100, now);
        for (int i = 0; i < 4; i++) {
            w = w.exited(KILLED, after(Duration.ofSeconds(2)), POLICY);
            w = w.restarted(101 + i, after(Duration.ofSeconds(30)));
        }
        w = w.exited(KILLED, after(Duration.ofMinutes(1)), POLICY);
        assertEquals(1, w.crashesInARow());
        assertEquals(now.plusSeconds(1), w.restartAt().orElseThrow());
    }

    @Test
    void tenCrashesInARow_giveUp_andGantryRestartTriesAgain() {
        ServiceWatch w = ServiceWatch.started("scheduler", 100, now);
        for (int i = 1; i < POLICY.giveUpAfter(); i++) {
            w = w.exited(ExitStatus.of(1), after(Duration.ofSeconds(1)), POLICY);
            assertEquals(State.RESTARTING, w.state(), "crash " + i);
            w = w.restarted(100 + i, after(POLICY.backoff(i)));
        }
        w = w.exited(ExitStatus.of(1), after(Duration.ofSeconds(1)), POLICY);
        assertEquals(State.GIVEN_UP, w.state());
        assertFalse(w.due(after(Duration.ofHours(1))), "given up: never due");
        assertTrue(w.describe(now).contains("bin/gantry restart scheduler"), w.describe(now));

        ServiceWatch again = w.stopping().startedAsAsked(500, now);
        assertEquals(State.RUNNING, again.state());
        assertEquals(0, again.crashesInARow());
        assertEquals(POLICY.giveUpAfter() - 1, again.restarts(), "a restart asked for is not counted");
    }

    @Test
    void aRestartThatCannotStartAProcess_countsAsACrash_andWaitsLonger() {
        ServiceWatch w = ServiceWatch.started("select", 100, now).exited(KILLED, after(Duration.ofSeconds(2)), POLICY);
        w = w.notStarted("java: No such file or directory", after(Duration.ofSeconds(1)), POLICY);
        assertEquals(State.RESTARTING, w.state());
        assertEquals(2, w.crashesInARow());
        assertEquals(now.plusSeconds(2), w.restartAt().orElseThrow());
        assertEquals(Optional.of("could not start: java: No such file or directory"), w.lastExit());
        assertEquals(0, w.restarts(), "no process was started");
    }

    @Test
    void aStopAskedFor_isNotACrash() {
        ServiceWatch w = ServiceWatch.started("scheduler", 100, now).stopping().exited(ExitStatus.of(143), after(Duration.ofSeconds(1)), POLICY);
        assertEquals(State.STOPPED, w.state());
        assertEquals(0, w.restarts());
        assertEquals(0, w.crashesInARow());
        assertFalse(w.due(after(Duration.ofMinutes(5))));
        ServiceWatch again = w.startedAsAsked(101, now);
        assertEquals(0, again.restarts());
    }

    @Test
    void aStopWhileARestartWaits_callsTheRestartOff() {
        ServiceWatch w = ServiceWatch.started("gang", 100, now).exited(KILLED, after(Duration.ofSeconds(1)), POLICY).stopping();
        assertEquals(State.STOPPED, w.state());
        assertFalse(w.due(after(Duration.ofMinutes(1))));
    }

    @Test
    void onlyARunningProcessCanExit() {
        ServiceWatch stopped = ServiceWatch.started("gang", 100, now).stopping().exited(KILLED, now, POLICY);
        assertThrows(IllegalStateException.class, () -> stopped.exited(KILLED, now, POLICY));
        assertThrows(IllegalStateException.class, () -> stopped.restarted(5, now));
    }

    @Test
    void describe_showsRestartsLastExitAndTheWaitingRestart() {
        ServiceWatch w = ServiceWatch.started("gang", 100, now).exited(KILLED, after(Duration.ofSeconds(3)), POLICY);
        assertEquals("restarts=0 last exit: killed by signal 9 (SIGKILL) at 2026-11-27T22:00:03Z (restart 1 in a row, in 1 s)",
                w.describe(now));
        assertEquals("restarts=1 last exit: killed by signal 9 (SIGKILL) at 2026-11-27T22:00:03Z",
                w.restarted(101, after(Duration.ofSeconds(1))).describe(now));
        assertEquals("restarts=0", ServiceWatch.started("gang", 1, now).describe(now));
    }

    @ParameterizedTest(name = "status {0} reads \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "137 | killed by signal 9 (SIGKILL)",
        "143 | killed by signal 15 (SIGTERM)",
        "134 | killed by signal 6 (SIGABRT)",
        "1   | exited with status 1",
        "0   | exited with status 0",
        "128 | exited with status 128"})
    void exitStatus_readsAsAShellWouldSayIt(int code, String text) {
        assertEquals(text, ExitStatus.of(code).describe());
    }

    @Test
    void anExitNotSeenAsAChild_isUnknown() {
        assertTrue(ExitStatus.unknown().describe().startsWith("exited (status unknown"));
    }
}
