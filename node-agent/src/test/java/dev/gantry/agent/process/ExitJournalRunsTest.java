package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.job.ExitReport;
import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.JobRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exit journal keeps one record per run of a job: two runs' owed exits neither overwrite nor acknowledge each other. */
class ExitJournalRunsTest {

    static final Instant T = Instant.parse("2026-11-27T20:00:00Z");

    @TempDir
    Path dir;

    static ExitReport exitOfRun(int run, Instant ended) {
        return new ExitReport(5, new ExitStatus(0, 9), "requeued", 1.0, 10, T, ended, false, run);
    }

    @Test
    void twoRunsOwed_bothKept_andAcknowledgedEachOnItsOwn() throws IOException {
        JobTableStore journal = new JobTableStore(dir);
        ExitReport first = exitOfRun(0, T.plusSeconds(1));
        ExitReport second = exitOfRun(1, T.plusSeconds(2));
        journal.recorded(first);
        journal.recorded(second);

        assertEquals(List.of(first, second), new JobTableStore(dir).unacknowledged(), "kept across a restart, with their runs");

        journal.acknowledged(first);
        assertEquals(List.of(second), journal.unacknowledged());
    }

    @Test
    void anExitOfAnUnknownRun_keepsTheOlderRecordName_andReadsBackUnknown() throws IOException {
        JobTableStore journal = new JobTableStore(dir);
        ExitReport unknown = new ExitReport(6, new ExitStatus(2, 0), "", 0, 0, T, T, false);
        journal.recorded(unknown);

        assertEquals(JobRun.UNKNOWN, journal.unacknowledged().get(0).run());
        journal.acknowledged(unknown);
        assertEquals(List.of(), journal.unacknowledged());
    }
}
