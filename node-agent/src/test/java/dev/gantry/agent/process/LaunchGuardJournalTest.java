package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.job.LaunchGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchGuardJournalTest {

    @TempDir
    Path dir;

    static final Instant T = Instant.parse("2026-11-27T12:00:00.123456789Z");

    @Test
    void whatWasRememberedAndNotForgotten_isReadBack() {
        LaunchGuardJournal journal = new LaunchGuardJournal(dir);
        journal.load();
        journal.remembered(new LaunchGuard.Record(1, LaunchGuard.Mark.LAUNCHED, T.plusSeconds(900), T));
        journal.remembered(new LaunchGuard.Record(2, LaunchGuard.Mark.LAUNCHED, T.plusSeconds(900), T));
        journal.remembered(new LaunchGuard.Record(2, LaunchGuard.Mark.REVOKED, T.plusSeconds(1000), T.plusSeconds(5)));
        journal.forgot(1);

        List<LaunchGuard.Record> back = new LaunchGuardJournal(dir).load();

        // the end rounded up to the second: never remembered for less
        assertEquals(List.of(new LaunchGuard.Record(2, LaunchGuard.Mark.REVOKED, Instant.parse("2026-11-27T12:16:41Z"),
                T.plusSeconds(5))), back);
    }

    @Test
    void theFileIsCompacted_soItHoldsAboutWhatIsLive() throws Exception {
        LaunchGuardJournal journal = new LaunchGuardJournal(dir);
        journal.load();
        for (long id = 1; id <= 10_000; id++) {
            journal.remembered(new LaunchGuard.Record(id, LaunchGuard.Mark.LAUNCHED, T.plusSeconds(900), T));
            journal.forgot(id);
        }
        long lines = Files.readAllLines(dir.resolve(LaunchGuardJournal.FILE)).size();
        assertTrue(lines < 200, lines + " lines for no live record");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(LaunchGuardJournal.FILE))));
    }

    @Test
    void aGuardRestoredFromTheJournal_refusesTheSameCredentialAgain() {
        LaunchGuardJournal journal = new LaunchGuardJournal(dir);
        journal.load();
        new LaunchGuard(() -> T, java.time.Duration.ofMinutes(15), journal).launched(7, T.minusSeconds(1), T.plusSeconds(300));

        LaunchGuard restarted = new LaunchGuard(() -> T.plusSeconds(10), java.time.Duration.ofMinutes(15));
        restarted.restore(new LaunchGuardJournal(dir).load());

        assertTrue(restarted.refusal(7, T.minusSeconds(1)).isPresent());
        assertTrue(restarted.refusal(7, T.plusSeconds(5)).isEmpty(), "a newer credential (a requeued run) passes");
    }
}
