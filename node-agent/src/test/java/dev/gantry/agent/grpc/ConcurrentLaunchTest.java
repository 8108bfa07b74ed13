package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.testing.AgentRig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Launches arriving together spawn concurrently, while every script is written with no spawn under way: a script
 * open for writing when another job's process is forked would fail to exec (ETXTBSY, exit 126).
 */
class ConcurrentLaunchTest extends OnAgentRig {

    private static final int JOBS = 48;

    @Test
    void manyLaunchesAtOnce_allRunTheirScripts() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (long id = 1; id <= JOBS; id++) {
                long jobId = id;
                calls.add(callers.submit(() -> rig.launch(jobId, "#!/bin/sh\necho ran " + jobId + "\n")));
            }
            for (Future<?> call : calls) {
                call.get();
            }
        } finally {
            callers.shutdown();
        }

        for (long id = 1; id <= JOBS; id++) {
            assertEquals(0, rig.awaitExit(id).getExitCode(), "job " + id);
            assertEquals("ran " + id + "\n", AgentRig.read(rig.outputOf(id)), "job " + id);
        }
    }
}
