package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchGuardTest {

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    /** Credentials in these cases were issued a second before the guard's clock starts. */
    private static final Instant ISSUED = T0.minusSeconds(1);

    private final FakeClock clock = new FakeClock(T0);
    private final LaunchGuard guard = new LaunchGuard(clock, Duration.ofHours(1));

    @Test
    void unknownJob_mayLaunch() {
        assertEquals(Optional.empty(), guard.refusal(1, ISSUED));
    }

    @Test
    void launchedJob_isRefused_asReplay() {
        guard.launched(1, ISSUED, T0.plusSeconds(60));

        assertTrue(guard.refusal(1, ISSUED).orElseThrow().contains("already launched"));
    }

    @Test
    void terminatedJob_isRefused_asRevoked_evenIfNeverLaunched() {
        guard.revoked(2);

        assertTrue(guard.refusal(2, ISSUED).orElseThrow().contains("terminated"));
        assertTrue(guard.isRevoked(2));
    }

    @Test
    void revocation_winsOverAnEarlierLaunch() {
        guard.launched(3, ISSUED, T0.plusSeconds(60));
        guard.revoked(3);

        assertTrue(guard.refusal(3, ISSUED).orElseThrow().contains("terminated"));
    }

    @Test
    void abandonedLaunch_mayLaunchAgain_butAbandoningDoesNotUndoARevocation() {
        guard.launched(4, ISSUED, T0.plusSeconds(60));
        guard.launchAbandoned(4);
        guard.revoked(5);
        guard.launchAbandoned(5);

        assertEquals(Optional.empty(), guard.refusal(4, ISSUED));
        assertTrue(guard.isRevoked(5));
    }

    @Test
    void ids_areForgotten_afterMemory_andAfterTheirCredentialExpires() {
        guard.launched(6, ISSUED, T0.plusSeconds(60));
        guard.launched(7, ISSUED, T0.plus(Duration.ofHours(3)));
        guard.revoked(8);

        clock.advance(Duration.ofHours(1).plusSeconds(1));

        assertEquals(Optional.empty(), guard.refusal(6, ISSUED), "memory passed, credential long expired");
        assertTrue(guard.refusal(7, ISSUED).isPresent(), "its credential is still valid");
        assertEquals(Optional.empty(), guard.refusal(8, ISSUED));
        assertEquals(1, guard.size());

        clock.advance(Duration.ofHours(2));

        assertEquals(0, guard.size());
    }

    @Test
    void revokingAgain_extendsTheMemory() {
        guard.revoked(9);
        clock.advance(Duration.ofMinutes(50));
        guard.revoked(9);
        clock.advance(Duration.ofMinutes(50));

        assertTrue(guard.isRevoked(9));
        assertTrue(guard.refusal(9, ISSUED).isPresent());
    }

    @Test
    void credentialIssuedAfterATermination_mayLaunch_asARequeuedJobDoes() {
        guard.launched(10, ISSUED, T0.plusSeconds(60));
        guard.revoked(10);
        clock.advance(Duration.ofSeconds(5));

        assertTrue(guard.refusal(10, T0).isPresent(), "issued before the termination (the cancel race)");
        assertEquals(Optional.empty(), guard.refusal(10, T0.plusSeconds(5)), "issued after it: a requeued launch");
    }

    @Test
    void replay_isTheSameOrAnOlderCredential_aNewerOneIsANewLaunch() {
        guard.launched(11, T0, T0.plusSeconds(60));

        assertTrue(guard.refusal(11, T0).isPresent(), "the same credential again");
        assertTrue(guard.refusal(11, ISSUED).isPresent(), "an older one");
        assertEquals(Optional.empty(), guard.refusal(11, T0.plusMillis(1)));
    }
}
