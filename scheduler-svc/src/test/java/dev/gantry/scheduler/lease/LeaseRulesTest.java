package dev.gantry.scheduler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class LeaseRulesTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final LeaseTerms TERMS = LeaseTerms.DEFAULT;

    static Stream<Arguments> claims() {
        return Stream.of(
                Arguments.of("never held", new Lease("", "", 0, Instant.EPOCH), true),
                Arguments.of("held by another, not expired", new Lease("ctl0", "h:1", 4, NOW.plusMillis(1)), false),
                Arguments.of("held by another, expires right now", new Lease("ctl0", "h:1", 4, NOW), true),
                Arguments.of("held by another, expired", new Lease("ctl0", "h:1", 4, NOW.minusSeconds(3)), true),
                Arguments.of("held by me (a restart of this controller)", new Lease("ctl1", "h:2", 4, NOW.plusSeconds(5)), true));
    }

    @ParameterizedTest(name = "{0}: taken = {2}")
    @MethodSource("claims")
    void aControllerTakesTheLease_onlyWhenFreeExpiredOrItsOwn_andAlwaysRaisesTheFencingNumber(String name, Lease current, boolean taken) {
        LeaseRules.Claim claim = LeaseRules.claim(current, "ctl1", "h:2", NOW, TERMS);
        if (taken) {
            Lease mine = assertInstanceOf(LeaseRules.Claim.Take.class, claim).lease();
            assertEquals(new Lease("ctl1", "h:2", current.fencing() + 1, NOW.plus(TERMS.ttl())), mine);
        } else {
            assertEquals(current, assertInstanceOf(LeaseRules.Claim.Wait.class, claim).active());
        }
    }

    @Test
    void theHolderStops_whenTheTtlHasPassedSinceItSentItsLastRenewal() {
        assertFalse(LeaseRules.selfExpired(TERMS.ttl().minusMillis(1), TERMS));
        assertTrue(LeaseRules.selfExpired(TERMS.ttl(), TERMS));
        assertTrue(LeaseRules.selfExpired(Duration.ofSeconds(30), TERMS), "resumed after a 30 s SIGSTOP");
    }

    @Test
    void termsAndNames_areChecked() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> LeaseRules.claim(new Lease("", "", 0, Instant.EPOCH), " ", "h:1", NOW, TERMS));
        assertTrue(TERMS.ttl().plus(TERMS.pollEvery()).compareTo(Duration.ofSeconds(10)) < 0,
                "a standby takes over within 10 s of the holder's last renewal");
    }
}
