package dev.gantry.agent.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.agent.process.CgroupContainment;
import dev.gantry.agent.process.CgroupLayout;
import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.ProcessGroupContainment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Cgroup containment for a test's rig, when this host lets the test create cgroups; tests skip cleanly otherwise. */
public final class Cgroups {

    private Cgroups() {}

    /** The cgroup containment of an agent whose spool is {@code tempDir/spool}, or a skipped test. */
    public static CgroupContainment required(Path tempDir) {
        Optional<CgroupLayout> layout = CgroupLayout.detect(CgroupLayout.scopeName(AgentRig.NODE, tempDir.resolve("spool")), new ArrayList<>());
        assumeTrue(layout.isPresent(), "no writable cgroup hierarchy on this host");
        return new CgroupContainment(layout.get());
    }

    /** Both containments where cgroups are writable, else process groups only: for tests that hold for either. */
    public static List<String> modes() {
        Optional<CgroupLayout> layout = CgroupLayout.detect("gantry_probe_" + ProcessHandle.current().pid(), new ArrayList<>());
        layout.ifPresent(Cgroups::removeScope);
        return layout.isPresent() ? List.of(ProcessGroupContainment.MODE, "cgroup") : List.of(ProcessGroupContainment.MODE);
    }

    public static Containment of(String mode, Path tempDir) {
        return mode.equals(ProcessGroupContainment.MODE) ? new ProcessGroupContainment() : required(tempDir);
    }

    /** The job's directory in the unified hierarchy (skips the test on v1-only hosts). */
    public static Path unifiedJobDir(CgroupContainment containment, long jobId) {
        assumeTrue(containment.layout().unified().isPresent(), "no cgroup v2 here");
        return containment.layout().unified().get().resolve("job_" + jobId);
    }

    /** The value of {@code key} in a flat-keyed cgroup file (cgroup.events, cpu.stat, …). */
    public static long keyed(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] kv = line.trim().split("\\s+");
                if (kv.length == 2 && kv[0].equals(key)) {
                    return Long.parseLong(kv[1]);
                }
            }
            throw new AssertionError(file + " has no " + key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes a layout's (empty) scope directories. */
    public static void removeScope(CgroupLayout layout) {
        for (Optional<Path> p : List.of(layout.unified(), layout.freezer(), layout.memory(), layout.cpuacct())) {
            p.ifPresent(dir -> {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // not empty: a job of a failed test is still in it
                }
            });
        }
    }
}
