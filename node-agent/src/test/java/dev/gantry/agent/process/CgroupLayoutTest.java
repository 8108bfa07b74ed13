package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CgroupLayoutTest {

    private static Optional<Path> p(boolean present, String path) {
        return present ? Optional.of(Path.of(path)) : Optional.empty();
    }

    @ParameterizedTest(name = "v2={0} v2 memory={1} v1 freezer={2} v1 memory={3} -> {4}")
    @CsvSource({
        "true,  true,  false, false, cgroup_v2,     true",
        "true,  false, false, true,  cgroup_hybrid, true",
        "true,  false, false, false, cgroup_v2,     false",
        "false, false, true,  true,  cgroup_v1,     true",
        "false, false, true,  false, cgroup_v1,     false",
    })
    void mode_namesWhatHoldsTheJobs_andWhetherMemoryIsLimited(boolean v2, boolean v2Memory, boolean freezer, boolean memory,
            String mode, boolean limitsMemory) {
        CgroupLayout layout = new CgroupLayout(p(v2, "/cg/unified/x"), v2Memory, p(freezer, "/cg/freezer/x"), p(memory, "/cg/memory/x"),
                Optional.empty());

        assertEquals(mode, layout.mode());
        assertEquals(limitsMemory, layout.limitsMemory());
    }

    @Test
    void scopeName_isStablePerSpoolDir_andDiffersBetweenAgentsOfTheSameNodeName() {
        String a = CgroupLayout.scopeName("n1", Path.of("/run/a/spool/n1"));

        assertEquals(a, CgroupLayout.scopeName("n1", Path.of("/run/a/spool/../spool/n1")));
        assertNotEquals(a, CgroupLayout.scopeName("n1", Path.of("/run/b/spool/n1")));
        assertEquals(true, a.matches("gantry_n1_[0-9a-f]{8}"), a);
    }
}
