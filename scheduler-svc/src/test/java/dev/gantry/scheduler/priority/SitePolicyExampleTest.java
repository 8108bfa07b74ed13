package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.Keys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** conf/examples/site-policy.conf, loaded with the real parser, gives the policy it says it gives. */
class SitePolicyExampleTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final long DAY = 86400;

    private static ClusterConfig config() {
        Path file = Path.of("../conf/examples/site-policy.conf");
        assertTrue(Files.exists(file), "run from scheduler-svc/");
        return ConfigParser.parse(file);
    }

    private static PriorityInput job(String account, String user, String qos, long waited, TresAmount tres) {
        return new PriorityInput(1, user, account, "batch", qos, NOW.getEpochSecond() - waited, tres, 0, 0);
    }

    @Test
    void settings_areThePublishedOnes() {
        ClusterConfig c = config();
        assertEquals(DAY, c.get(Keys.PRIORITY_DECAY_HALF_LIFE));
        assertEquals(300, c.get(Keys.PRIORITY_CALC_PERIOD));
        assertEquals(30 * DAY, c.get(Keys.PRIORITY_MAX_AGE));
        assertEquals("linear", c.get(Keys.FAIR_SHARE_TYPE));
        assertEquals(3000, c.get(Keys.SCHEDULER_PARAMETERS).backfill().minPrioReserve());
        assertEquals(3000, c.qos("buyin").orElseThrow().priority());
    }

    @Test
    void buyInQos_addsExactly3000() {
        ClusterConfig c = config();
        MultifactorPriority m = MultifactorPriority.of(c);
        FairShareTable fs = FairShare.of(c).table(NOW);
        TresAmount tres = TresAmount.of(2, 4096, 1);
        long normal = m.priority(job("astro", "dave", "normal", DAY, tres), NOW, fs);
        long buyin = m.priority(job("astro", "dave", "buyin", DAY, tres), NOW, fs);
        assertEquals(3000, buyin - normal);
    }

    @Test
    void age_isWorthUpTo60000Over30Days() {
        MultifactorPriority m = MultifactorPriority.of(config());
        FairShareTable fs = FairShare.of(config()).table(NOW);
        TresAmount none = TresAmount.of(0, 0, 1);
        assertEquals(30000, m.factors(job("biology", "erin", "normal", 15 * DAY, none), NOW, fs).age(), 1e-9);
        assertEquals(60000, m.factors(job("biology", "erin", "normal", 30 * DAY, none), NOW, fs).age(), 1e-9);
        assertEquals(60000, m.factors(job("biology", "erin", "normal", 90 * DAY, none), NOW, fs).age(), 1e-9);
    }

    @Test
    void size_isWorth100PerCpuAnd20PerGb() {
        MultifactorPriority m = MultifactorPriority.of(config());
        FairShareTable fs = FairShare.of(config()).table(NOW);
        PriorityFactors f = m.factors(job("biology", "erin", "normal", 0, TresAmount.of(6, 10 * 1024, 2)), NOW, fs);
        assertEquals(600, f.tres().get("cpu"), 1e-9);
        assertEquals(200, f.tres().get("mem"), 1e-9);
        assertEquals(0, f.jobSize());
        // no usage yet: fair share is worth its full 60000
        assertEquals(60000, f.fairshare(), 1e-9);
        assertEquals(60000 + 600 + 200, f.priority());
    }

    @Test
    void fairShare_isLinearWithADayHalfLife() {
        ClusterConfig c = config();
        FairShare fs = FairShare.of(c);
        // physics (50 of 120 shares) ran alone: astro's dave used it all. erin (biology) used nothing.
        fs.charge("astro", "dave", "normal", TresAmount.of(8, 0, 1), 3600, NOW.minusSeconds(DAY));
        FairShareTable t = fs.table(NOW);
        int dave = t.tree().node(Association.of("astro", "dave"));
        assertEquals(8 * 3600 / 2.0, t.rawUsage(dave), 1e-6, "one half-life later");
        MultifactorPriority m = MultifactorPriority.of(c);
        TresAmount none = TresAmount.of(0, 0, 1);
        assertEquals(60000, m.factors(job("biology", "erin", "normal", 0, none), NOW, t).fairshare(), 1e-9);
        // dave: U_E = 1 (all usage); S = 50/120 * 20/21 (astro beside carol's 1 share in physics): linear 1 - 1/(2S) < 0
        assertEquals(0, m.factors(job("astro", "dave", "normal", 0, none), NOW, t).fairshare(), 1e-9);
    }
}
