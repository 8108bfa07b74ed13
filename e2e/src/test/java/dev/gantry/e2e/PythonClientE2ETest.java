package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client (clients/python) against a live local cluster: its whole test suite, the unit tests and the
 * live ones (tests/test_live_cluster.py: submit and wait, output file, paging 30 held jobs 7 at a time, watch,
 * cancel, bad input naming the field, a token from CreateToken), run by Debian's /usr/bin/python3 with Debian's
 * python3-grpcio and python3-protobuf (installed when missing), as an unprivileged user where the tests run as root.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// installs a Debian package when missing (munge, prometheus, python3-grpcio): one apt-get at a time
@org.junit.jupiter.api.parallel.ResourceLock("apt-get")
class PythonClientE2ETest {

    private static final Path PYTHON = Path.of("/usr/bin/python3");
    /** Every test of the suite: the unit tests and LIVE_TESTS. Adding a Python test means raising it. */
    private static final int TESTS = 36;
    private static final List<String> LIVE_TESTS = List.of(
            "test_aSubmittedScriptRuns_andWaitReturnsItFinished_withItsOutputFile",
            "test_wrap_runsACommandWithTheSubmittersPath",
            "test_heldJobs_listInPages_andCancelAnswersPerJob",
            "test_watch_seesAHeldJob_thenItsCancellation",
            "test_badInput_isGantryError_namingTheField",
            "test_createToken_givesAJwtThatAuthenticatesAnotherClient_orSaysJwtIsOff");
    private static final Pattern RAN = Pattern.compile("^Ran (\\d+) tests? in ", Pattern.MULTILINE);

    private TestCluster cluster;
    private Path tmp;

    @BeforeAll
    void up(@TempDir Path tempDir) throws Exception {
        tmp = tempDir;
        if (!debianGrpc()) {
            LocalUsers.run(List.of("sh", "-c", "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-grpcio python3-protobuf"));
        }
        assumeTrue(debianGrpc(), "Debian's python3-grpcio and python3-protobuf are not installed and cannot be (README, \"Tests\")");
        TestCluster.writeJwtKey(tmp);
        cluster = TestCluster.start(tmp, "py", """
                ClusterName=e2e-py
                KillWait=2
                AuthAltTypes=auth/jwt
                AuthAltParameters=jwt_key=jwt_hs256.key
                NodeName=p[1-2] CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=p[1-2] Default=YES MaxTime=60 State=UP
                """);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static boolean debianGrpc() throws Exception {
        return Files.isExecutable(PYTHON)
                && LocalUsers.run(List.of(PYTHON.toString(), "-c", "import grpc, google.protobuf")).exit() == 0;
    }

    @Test
    void thePythonClientsSuite_passesAgainstALiveCluster_everyLiveTestRunAndNoneSkipped() throws Exception {
        Path client = TestCluster.home().resolve("clients/python");
        Map<String, String> env = Map.of("GANTRY_RUN_DIR", cluster.runDir.toString(), "GANTRY_CONTROLLER", "",
                "PYTHONPATH", client.resolve("src").toString(), "PYTHONDONTWRITEBYTECODE", "1");
        String[] suite = {PYTHON.toString(), "-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."};
        Shell.Result r;
        if ("0".equals(LocalUsers.run(List.of("id", "-u")).out().strip())) {
            LocalUsers.User user = LocalUsers.ensure("gantry-py1");
            Path home = Files.createDirectories(tmp.resolve("home-" + user.name()));
            LocalUsers.run(List.of("chown", user.uid() + ":" + user.gid(), home.toString()));
            LocalUsers.run(List.of("chmod", "755", tmp.toString()));
            java.util.HashMap<String, String> asUser = new java.util.HashMap<>(env);
            asUser.put("HOME", home.toString());
            asUser.put("TMPDIR", home.toString()); // the jobs write their output where the suite's user may read it
            r = LocalUsers.as(user, client, asUser, suite);
        } else {
            r = run(client, env, suite);
        }
        String report = r.err(); // unittest reports on stderr
        assertEquals(0, r.exit(), r.toString());
        Matcher ran = RAN.matcher(report);
        assertTrue(ran.find(), r.toString());
        assertEquals(TESTS, Integer.parseInt(ran.group(1)), r.toString());
        assertTrue(report.stripTrailing().endsWith("OK"), "no failure and nothing skipped\n" + r);
        for (String test : LIVE_TESTS) {
            assertTrue(Pattern.compile("^" + test + " \\(tests\\.test_live_cluster\\.LiveClusterTest[^)]*\\) \\.\\.\\. ok$", Pattern.MULTILINE)
                    .matcher(report).find(), test + " ran and passed\n" + r);
        }
        assertFalse(report.contains("skipped"), r.toString());
    }

    private static Shell.Result run(Path cwd, Map<String, String> env, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        var out = p.getInputStream().readAllBytes();
        var err = p.getErrorStream().readAllBytes();
        p.waitFor();
        return new Shell.Result(p.exitValue(), new String(out, java.nio.charset.StandardCharsets.UTF_8),
                new String(err, java.nio.charset.StandardCharsets.UTF_8));
    }
}
