package dev.gantry.cli.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The archive's training workload runs every command end to end over OkHttp on loopback; if one of them
 * breaks, the archive would silently miss its classes, so the workload must pass.
 */
class WarmupRunTest {

    @Test
    void everyCommandRunsAsExpectedOverARealConnection() throws Exception {
        assertEquals(List.of(), WarmupRun.run());
    }
}
