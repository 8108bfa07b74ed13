package dev.gantry.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Jobs that count, as the side-by-side runs with real Slurm did: each writes a counter to a file of its own five times a
 * second, so what a job's processes really did is read from its file, not from the state the controller reports. A job
 * that never ran has no file (0).
 */
final class Counters {

    /** Ticks per second of {@link #SCRIPT}. */
    static final double TICKS_PER_SECOND = 5;

    private final TestCluster cluster;

    Counters(TestCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * A batch script that writes 1, 2, 3, … to {@code cnt.<job id>} in the work directory, one every 0.2 s. Each tick
     * overwrites the counter in place ({@code 1<>}: opened without truncating, and a count is never shorter than the one
     * before), so a reader never sees it empty, even when the job is frozen between opening and writing; and a tick
     * forks nothing but {@code sleep}, so a loaded machine slows it little.
     */
    String script() {
        return "f=" + cluster.work + "/cnt.$SLURM_JOB_ID; i=0; while :; do i=$((i+1)); echo $i 1<>$f; sleep 0.2; done";
    }

    /** The job's last tick, 0 before its first. */
    long of(long jobId) throws IOException {
        Path file = cluster.work.resolve("cnt." + jobId);
        if (!Files.exists(file)) {
            return 0;
        }
        String text = Files.readString(file).trim();
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    /** squeue's view of the jobs, as Slurm's pages print it: id → "ST NODELIST" (e.g. "R n[12-14]"). */
    Map<Long, String> squeue() throws Exception {
        Shell.Result r = cluster.shell.run(cluster.work, "squeue", "-h", "-o", "%i %t %N");
        Map<Long, String> rows = new LinkedHashMap<>();
        for (String line : r.out().split("\n")) {
            String[] f = line.trim().split("\\s+", 2);
            if (f.length == 2) {
                rows.put(Long.parseLong(f[0]), f[1]);
            }
        }
        return rows;
    }
}
