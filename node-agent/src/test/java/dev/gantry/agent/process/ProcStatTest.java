package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcStatTest {

    private static final String TAIL = " 0 -1 4194304 97 0 0 0 11 7 5 3 20 0 1 0 90587 3133440 394 18446744073709551615 0 0";

    @Test
    void parse_readsStatePgrpTimesAndRss() {
        ProcStat s = ProcStat.parse("8704 (cat) R 8700 8690 3991" + TAIL).orElseThrow();

        assertEquals(new ProcStat(8704, 'R', 8690, 11, 7, 5, 3, 90587, 394), s);
        assertEquals(26, s.cpuTicksWithChildren());
        assertTrue(s.isLive());
    }

    @Test
    void parse_countsFieldsAfterTheLastParenthesis_ofAnyCommandName() {
        ProcStat s = ProcStat.parse("12 (a) b (c) d) Z 1 12 12" + TAIL).orElseThrow();

        assertEquals('Z', s.state());
        assertEquals(12, s.pgrp());
        assertFalse(s.isLive());
    }

    @Test
    void parse_ofSomethingElse_isEmpty() {
        assertEquals(Optional.empty(), ProcStat.parse(""));
        assertEquals(Optional.empty(), ProcStat.parse("12 (x) R 1 2"));
    }

    @Test
    void ownProcess_isReadable() {
        ProcStat self = ProcFs.stat(ProcessHandle.current().pid()).orElseThrow();

        assertTrue(self.isLive());
        assertTrue(ProcFs.all().stream().anyMatch(p -> p.pid() == self.pid()));
    }
}
