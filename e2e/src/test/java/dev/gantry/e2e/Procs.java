package dev.gantry.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads /proc to find a job's processes: those whose environment has SLURM_JOB_ID=id. */
final class Procs {
    private Procs() {}

    static List<Long> ofJob(long jobId) throws IOException {
        byte[] needle = ("SLURM_JOB_ID=" + jobId + "\0").getBytes();
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
            for (Path d : dirs.toList()) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    byte[] env = Files.readAllBytes(d.resolve("environ"));
                    if (contains(env, needle)) {
                        pids.add(Long.parseLong(name));
                    }
                } catch (IOException | SecurityException gone) {
                    // exited meanwhile, or not ours to read
                }
            }
        }
        return pids;
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (i > 0 && hay[i - 1] != 0) {
                continue; // match only at the start of a variable
            }
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
