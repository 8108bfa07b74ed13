package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18's submission limits on a real local cluster, by an unprivileged user with the Slurm commands: a script over
 * SchedulerParameters=max_script_size (Slurm's 4 MiB by default) is refused by sbatch naming the field and the limit,
 * and nothing is stored; a script at the limit with a large environment is taken, runs, and every later read of it
 * works (squeue, scontrol show job, scontrol write batch_script, byte for byte); a request beyond what the client API
 * takes at all is refused naming that limit; a configured max_script_size is the limit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SubmissionLimitsE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);
    private static final int FOUR_MIB = 4 << 20;
    /** Six variables of 100,000 characters: a 600 kB environment (one execve string may hold 128 kB). */
    private static final Map<String, String> LARGE_ENVIRONMENT = largeEnvironment();

    private TestCluster cluster;
    private LocalUsers.User user;
    private Path work;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        user = LocalUsers.ensure("gantry-sl1");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x")); // the user's work dir is below
        cluster = TestCluster.start(tmp, "limits", """
                ClusterName=limits-e2e
                KillWait=5
                NodeName=l[1-2] CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=l[1-2] Default=YES MaxTime=60 State=UP
                """);
        work = workDir(tmp, user);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, String> largeEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < 6; i++) {
            env.put("GANTRY_E2E_BIG" + i, Character.toString('a' + i).repeat(100_000));
        }
        return env;
    }

    private static Path workDir(Path tmp, LocalUsers.User user) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("work-" + user.name()));
        Files.setAttribute(dir, "unix:uid", user.uid());
        Files.setAttribute(dir, "unix:gid", user.gid());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    /**
     * A batch script of exactly {@code bytes} bytes in the work dir: it prints "ran" and the length of the large
     * environment's first variable, then numbered comment lines (so a copy that lost or moved a line differs).
     */
    private Path script(String name, int bytes) throws Exception {
        StringBuilder s = new StringBuilder(bytes).append("#!/bin/bash\necho \"ran ${#GANTRY_E2E_BIG0}\"\nexit 0\n");
        for (int line = 0; s.length() < bytes; line++) {
            String next = "# filler line " + line + " " + "-".repeat(80) + "\n";
            s.append(next, 0, Math.min(next.length(), bytes - s.length()));
        }
        Path file = work.resolve(name);
        Files.writeString(file, s, StandardCharsets.US_ASCII);
        Files.setAttribute(file, "unix:uid", user.uid());
        assertEquals(bytes, Files.size(file));
        return file;
    }

    /** A bin/ command run by the user in the work dir, with {@code env} added to the cluster's. */
    private Shell.Result as(Map<String, String> env, String command, String... args) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(Map.of("GANTRY_RUN_DIR", cluster.runDir.toString()));
        all.putAll(env);
        String[] cmd = Stream.concat(Stream.of(TestCluster.home().resolve("bin").resolve(command).toString()), Stream.of(args))
                .toArray(String[]::new);
        return LocalUsers.as(user, work, all, cmd);
    }

    private Shell.Result as(String command, String... args) throws Exception {
        return as(Map.of(), command, args);
    }

    private long submit(Map<String, String> env, String... args) throws Exception {
        Shell.Result r = as(env, "sbatch", args);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    /** Polls scontrol show job until the job has {@code state}; its last answer. */
    private String awaitState(long id, String state) throws Exception {
        Instant deadline = Instant.now().plus(TestCluster.WAIT);
        Shell.Result last = null;
        while (Instant.now().isBefore(deadline)) {
            last = as("scontrol", "show", "job", Long.toString(id));
            if (last.exit() == 0 && last.out().contains("JobState=" + state + " ")) {
                return last.out();
            }
            Thread.sleep(200);
        }
        fail("job " + id + " did not reach " + state + "; last seen: " + last);
        return null;
    }

    @Test
    @Order(1)
    void aScriptOverMaxScriptSize_isRefusedBySbatch_namingTheFieldAndTheLimit_andNothingIsStored() throws Exception {
        Path over = script("over.sh", FOUR_MIB + 1);
        long before = submit(Map.of(), "--wrap", "true");

        Shell.Result r = as("sbatch", over.toString());

        assertNotEquals(0, r.exit(), r.toString());
        assertEquals("sbatch: error: Batch job submission failed: script: 4194305 bytes exceeds the limit of 4194304 bytes "
                + "(SchedulerParameters=max_script_size)\n", r.err(), r.toString());
        assertEquals("", r.out());
        assertEquals(before + 1, submit(Map.of(), "--wrap", "true"), "the refused script was not stored and used no job id");
    }

    @Test
    @Order(2)
    void aScriptAtMaxScriptSize_withALargeEnvironment_runs_andEveryReadOfItWorks() throws Exception {
        Path atLimit = script("at-limit.sh", FOUR_MIB);
        long id = submit(LARGE_ENVIRONMENT, "-H", atLimit.toString()); // held: squeue lists it pending

        Shell.Result squeue = as("squeue");
        assertEquals(0, squeue.exit(), squeue.toString());
        assertTrue(squeue.out().lines().anyMatch(l -> l.trim().startsWith(id + " ")), squeue.toString());
        Shell.Result show = as("scontrol", "show", "job", Long.toString(id));
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().contains("JobId=" + id + " ") && show.out().contains("JobState=PENDING "), show.toString());
        Shell.Result write = as("scontrol", "write", "batch_script", Long.toString(id), "copy.sh");
        assertEquals(0, write.exit(), write.toString());
        assertEquals(-1, Files.mismatch(atLimit, work.resolve("copy.sh")), "scontrol write batch_script gives it back byte for byte");

        Shell.Result release = as("scontrol", "release", Long.toString(id));
        assertEquals(0, release.exit(), release.toString());
        String ended = awaitState(id, "COMPLETED");
        assertTrue(ended.contains("ExitCode=0:0"), ended);
        assertEquals("ran 100000\n", Files.readString(work.resolve("slurm-" + id + ".out")),
                "the script ran whole, with the environment it was submitted with");
        Shell.Result after = as("squeue");
        assertEquals(0, after.exit(), after.toString());
        Shell.Result stdout = as("scontrol", "write", "batch_script", Long.toString(id), "-");
        assertEquals(0, stdout.exit());
        assertEquals(FOUR_MIB, stdout.out().length(), "an ended job's script is read back too");
    }

    @Test
    @Order(3)
    void anArrayOf300Tasks_withAScriptAtTheLimit_isStoredOnce_andTheControllerGoesOn() throws Exception {
        // each task stored with its own copy was 1.2 GB in one database write: the controller's writer died of it
        Path atLimit = script("array.sh", FOUR_MIB);
        long first = submit(Map.of(), "-H", "--array=0-299", atLimit.toString());

        long next = submit(Map.of(), "--wrap", "true");
        assertEquals(first + 300, next, "the controller takes the next submission");
        Shell.Result tasks = as("squeue", "-r", "-h", "-o", "%i", "-j", Long.toString(first));
        assertEquals(0, tasks.exit(), tasks.toString());
        assertEquals(300, tasks.out().lines().count(), tasks.toString());
        Shell.Result write = as("scontrol", "write", "batch_script", Long.toString(first + 299), "task.sh");
        assertEquals(0, write.exit(), write.toString());
        assertEquals(-1, Files.mismatch(atLimit, work.resolve("task.sh")), "the last task's script, byte for byte");
        Shell.Result cancel = as("scancel", Long.toString(first));
        assertEquals(0, cancel.exit(), cancel.toString());
    }

    @Test
    @Order(4)
    void aRequestBeyondWhatTheClientApiTakes_isRefusedNamingThatLimit() throws Exception {
        Path huge = script("huge.sh", 12 << 20); // over max_script_size and the 11 MiB a request may have with it
        long before = submit(Map.of(), "--wrap", "true");

        Shell.Result r = as("sbatch", huge.toString());

        assertNotEquals(0, r.exit(), r.toString());
        assertTrue(Pattern.matches("sbatch: error: Batch job submission failed: the request is \\d+ bytes, more than the "
                + "11534336 bytes the controller takes \\(SchedulerParameters=max_script_size and room for the environment "
                + "and options\\)\n", r.err()), r.toString());
        assertEquals(before + 1, submit(Map.of(), "--wrap", "true"), "the refused request was not stored and used no job id");
    }

    @Test
    @Order(5)
    void aConfiguredMaxScriptSize_isTheLimit(@TempDir Path tmp) throws Exception {
        try (TestCluster small = TestCluster.start(tmp, "small", """
                ClusterName=small-e2e
                SchedulerParameters=max_script_size=4096
                NodeName=m1 CPUs=1 RealMemory=512
                PartitionName=debug Nodes=m1 Default=YES MaxTime=60 State=UP
                """)) {
            Shell shell = small.shell;
            Path fits = script("fits.sh", 4096);
            Path over = script("one-over.sh", 4097);
            Path big = script("big.sh", 1 << 20); // under the default limit, over the configured one

            Shell.Result taken = shell.run(small.work, "sbatch", "-H", fits.toString());
            assertEquals(0, taken.exit(), taken.toString());
            for (Path refused : new Path[] {over, big}) {
                Shell.Result r = shell.run(small.work, "sbatch", refused.toString());
                assertNotEquals(0, r.exit(), r.toString());
                assertEquals("sbatch: error: Batch job submission failed: script: " + Files.size(refused) + " bytes exceeds "
                        + "the limit of 4096 bytes (SchedulerParameters=max_script_size)\n", r.err(), r.toString());
            }
        }
    }
}
