package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.testing.AgentRig;
import org.junit.jupiter.api.Test;

/** CR_Core: a launch that names core ids binds the job's processes to them (sched_setaffinity through taskset). */
class CoreBindingTest extends OnAgentRig {

    private static final String SHOW_AFFINITY = "#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status\n";

    @Test
    void launchNamingCores_bindsTheJobToThem() {
        int last = Runtime.getRuntime().availableProcessors() - 1;
        rig.agent.launchJob(rig.request(110, SHOW_AFFINITY).addCoreIds(last).build());

        assertEquals(0, rig.awaitExit(110).getExitCode());
        assertEquals("Cpus_allowed_list:\t" + last + "\n", AgentRig.read(rig.outputOf(110)));
    }

    @Test
    void launchWithoutCores_isNotBound() {
        int cpus = Runtime.getRuntime().availableProcessors();
        rig.launch(111, SHOW_AFFINITY);

        assertEquals(0, rig.awaitExit(111).getExitCode());
        assertEquals("Cpus_allowed_list:\t" + (cpus == 1 ? "0" : "0-" + (cpus - 1)) + "\n", AgentRig.read(rig.outputOf(111)));
    }
}
