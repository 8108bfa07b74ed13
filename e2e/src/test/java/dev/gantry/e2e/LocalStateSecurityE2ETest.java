package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cluster run as root (as {@code bin/gantry up} usually is), met by two unprivileged local users acting as
 * an attacker would (issue 15, docs/security.md "Local state"): their jobs run as them with their groups; neither
 * can enter the other's job directory, the state directory or the database, or change the programs root runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalStateSecurityE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);

    private TestCluster cluster;
    private LocalUsers.User alice;
    private LocalUsers.User mallory;
    private Path aliceWork;
    private Path malloryWork;
    private Path state;
    private Map<String, String> env;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        alice = LocalUsers.ensure("gantry-t1");
        mallory = LocalUsers.ensure("gantry-t2");
        LocalUsers.addToGroup(alice, "gantry-tg");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x")); // the users' work dirs are below
        cluster = TestCluster.start(tmp, "sec", """
                ClusterName=sec-e2e
                KillWait=5
                NodeName=s[1-2] CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=s[1-2] Default=YES MaxTime=60 State=UP
                """);
        state = cluster.runDir.resolve("state");
        // the commands find the controller and the local authenticator (auth.sock) in the cluster's run directory
        env = Map.of("GANTRY_RUN_DIR", cluster.runDir.toString());
        aliceWork = workDir(tmp, alice);
        malloryWork = workDir(tmp, mallory);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Path workDir(Path tmp, LocalUsers.User user) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("work-" + user.name()));
        Files.setAttribute(dir, "unix:uid", user.uid());
        Files.setAttribute(dir, "unix:gid", user.gid());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private long submitAs(LocalUsers.User user, Path cwd, String... args) throws Exception {
        String[] cmd = Stream.concat(Stream.of(TestCluster.home().resolve("bin/sbatch").toString()), Stream.of(args)).toArray(String[]::new);
        Shell.Result r = LocalUsers.as(user, cwd, env, cmd);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    private Shell.Result as(LocalUsers.User user, String... command) throws Exception {
        return LocalUsers.as(user, Path.of("/"), Map.of(), command);
    }

    @Test
    void aUsersJobRuns_asThatUser_withItsSupplementaryGroups_andWritesInItsOwnWorkDir() throws Exception {
        long id = submitAs(alice, aliceWork, "--wrap", "id -u; id -Gn; echo done");

        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());

        assertEquals(0, job.getExitCode());
        Path out = aliceWork.resolve("slurm-" + id + ".out");
        assertEquals(alice.uid(), ((Number) Files.getAttribute(out, "unix:uid")).intValue(), "written by the job's user");
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(Integer.toString(alice.uid()), lines.get(0), String.join("\n", lines));
        assertTrue(List.of(lines.get(1).split(" ")).contains("gantry-tg"), "supplementary groups: " + lines.get(1));
        assertEquals("done", lines.get(2));
    }

    @Test
    void aUserCannotEnterAnotherUsersJobDirectory_norListTheSpool() throws Exception {
        long id = submitAs(alice, aliceWork, "--wrap", "sleep 300");
        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        try {
            Path spool = spoolRoot();
            Path jobDir = spool.resolve(job.getNodeList()).resolve("job" + id);
            TestCluster.awaitTrue(() -> Files.exists(jobDir.resolve("slurm_script")), "the script is spooled");
            assertEquals(alice.uid(), ((Number) Files.getAttribute(jobDir, "unix:uid", LinkOption.NOFOLLOW_LINKS)).intValue());
            assertEquals("rwx------", mode(jobDir));
            assertEquals("rwx--x--x", mode(spool));

            assertEquals(0, as(alice, "cat", jobDir.resolve("slurm_script").toString()).exit(), "its own user reads it");
            Shell.Result read = as(mallory, "cat", jobDir.resolve("slurm_script").toString());
            assertNotEquals(0, read.exit());
            assertTrue(read.err().contains("Permission denied"), read.toString());
            assertNotEquals(0, as(mallory, "ls", jobDir.toString()).exit());
            assertNotEquals(0, as(mallory, "ls", spool.toString()).exit(), "the spool lists nothing");
            assertNotEquals(0, as(mallory, "ls", spool.resolve(job.getNodeList()).toString()).exit());
            assertNotEquals(0, as(mallory, "touch", spool.resolve(job.getNodeList()).resolve("job999999").toString()).exit());
        } finally {
            LocalUsers.as(alice, aliceWork, env, TestCluster.home().resolve("bin/scancel").toString(), Long.toString(id));
        }
    }

    @Test
    void theStateIsTheClustersUsersOnly() throws Exception {
        assertEquals("rwx------", mode(state));
        assertEquals("rwx------", mode(state.resolve("cred")));
        for (String secret : List.of("cred/cred.key", "cred/cred.pub", "db.password")) {
            assertEquals("rw-------", mode(state.resolve(secret)), secret);
            assertNotEquals(0, as(mallory, "cat", state.resolve(secret).toString()).exit(), secret);
        }
        assertNotEquals(0, as(mallory, "ls", state.toString()).exit());
        assertNotEquals(0, as(mallory, "touch", state.resolve("planted").toString()).exit());
        assertFalse(Files.exists(state.resolve("planted")));
    }

    @Test
    void noOtherUserCanMakeTheSupervisorStopOrRestartAService() throws Exception {
        Path supervisor = cluster.runDir.resolve("supervisor");
        assertEquals("rwx------", mode(supervisor));
        assertEquals("rwx------", mode(supervisor.resolve("requests")));
        String gangPid = cluster.clusterProperties().getProperty("gang.pid");

        assertNotEquals(0, as(mallory, "touch", supervisor.resolve("requests/stop").toString()).exit());
        Shell.Result restart = as(mallory, TestCluster.home().resolve("bin/gantry").toString(), "restart", "gang",
                "--run-dir", cluster.runDir.toString());
        assertNotEquals(0, restart.exit(), restart.toString());

        Thread.sleep(1500); // the supervisor answers requests every tick: give a planted one time to act
        assertEquals(gangPid, cluster.clusterProperties().getProperty("gang.pid"), "gang-svc was not restarted");
        assertTrue(ProcessHandle.of(Long.parseLong(gangPid)).map(ProcessHandle::isAlive).orElse(false));
        assertEquals(0, cluster.shell.run(cluster.tmp, "gantry", "status", "--run-dir", cluster.runDir.toString()).exit(),
                "every service and the supervisor still run");
    }

    @Test
    void noOtherUserCanReachTheDatabase_andRootNeedsThePassword() throws Exception {
        long postmaster = postmasterPid();
        assertEquals(List.of(), tcpListeners(postmaster), "TCP sockets the postmaster listens on");

        Path socketDir = state.resolve("pgsocket");
        assertEquals("rwx------", mode(socketDir));
        Shell.Result mallorys = as(mallory, "psql", "-h", socketDir.toString(), "-U", "postgres", "-w", "-c", "SELECT 1");
        assertNotEquals(0, mallorys.exit(), mallorys.toString());
        assertTrue(mallorys.err().contains("Permission denied"), mallorys.toString());

        Shell.Result rootWithout = LocalUsers.run(List.of("psql", "-h", socketDir.toString(), "-U", "postgres", "-w", "-c", "SELECT 1"));
        assertNotEquals(0, rootWithout.exit(), rootWithout.toString());
        assertTrue(rootWithout.err().contains("no password supplied"), rootWithout.toString());

        String password = Files.readString(state.resolve("db.password")).strip();
        Shell.Result rootWith = LocalUsers.run(List.of("env", "PGPASSWORD=" + password, "psql", "-h", socketDir.toString(),
                "-U", "postgres", "-w", "-A", "-t", "-c", "SELECT count(*) > 0 FROM jobs"));
        assertEquals(0, rootWith.exit(), "with the password the check above is meaningful: " + rootWith);
    }

    @Test
    void noOtherUserCanChangeTheProgramsRootRunsForTheDatabase() throws Exception {
        Path exe = Files.readSymbolicLink(Path.of("/proc", Long.toString(postmasterPid()), "exe"));
        assertTrue(exe.toString().startsWith("/var/cache/gantry/postgresql/"), exe.toString());
        assertFalse(Files.exists(state.resolve("pg-binaries")));

        assertNotEquals(0, as(mallory, "sh", "-c", "echo '#!/bin/sh' > " + exe).exit());
        for (Path dir = exe.getParent(); dir != null; dir = dir.getParent()) {
            Shell.Result writable = as(mallory, "test", "-w", dir.toString());
            assertNotEquals(0, writable.exit(), dir + " is writable by " + mallory.name());
        }
        assertNotEquals(0, as(mallory, "touch", exe.resolveSibling("initdb.planted").toString()).exit());
    }

    private long postmasterPid() throws Exception {
        return Long.parseLong(Files.readAllLines(state.resolve("pgdata/postmaster.pid")).get(0).strip());
    }

    /** The local addresses of TCP sockets in LISTEN state that process {@code pid} holds. */
    private static List<String> tcpListeners(long pid) throws Exception {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                String target = Files.readSymbolicLink(fd).toString();
                if (target.startsWith("socket:[")) {
                    inodes.add(target.substring(8, target.length() - 1));
                }
            }
        }
        assertFalse(inodes.isEmpty(), "the postmaster holds its Unix socket");
        List<String> listening = new java.util.ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (Stream<String> lines = Files.lines(Path.of(table))) {
                lines.skip(1).map(l -> l.trim().split("\\s+")).filter(f -> f[3].equals("0A") && inodes.contains(f[9]))
                        .forEach(f -> listening.add(f[1]));
            }
        }
        return listening;
    }

    /** The local cluster's agents' spool, as LocalCluster names it: /dev/shm/gantry-spool-<SHA-256 of the run dir>. */
    private Path spoolRoot() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest(cluster.runDir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
        Path shm = Path.of("/dev/shm/gantry-spool-" + HexFormat.of().formatHex(digest, 0, 8));
        return Files.isDirectory(shm) ? shm : cluster.runDir.resolve("spool");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
