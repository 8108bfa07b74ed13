package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The Node.js client (clients/node, docs/clients.md "Node.js") as its users get it: installed from the repository with
 * {@code npm ci} (the committed lock file), its unit tests run with {@code node --test test/}, and its end-to-end tests
 * ({@code clients/node/e2e}) run with {@code node --test} against a live local cluster, as an unprivileged user in
 * their own directory, finding the cluster through GANTRY_RUN_DIR and authenticated by the node's local authenticator
 * as Gantry's commands are, over TLS (the cluster serves its public port with {@code --public-tls}). Skipped only where
 * node is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeClientE2ETest {

    /** node --test's TAP summary. */
    private static final Pattern PASS = Pattern.compile("^# pass (\\d+)$", Pattern.MULTILINE);
    private static final Pattern FAIL = Pattern.compile("^# fail (\\d+)$", Pattern.MULTILINE);
    /** The tests of clients/node/test and clients/node/e2e: a run that finds fewer ran less than it should. */
    private static final int UNIT_TESTS = 25;
    private static final int CLUSTER_TESTS = 8;

    private TestCluster cluster;
    private Path client;
    private Path work;
    private LocalUsers.User user;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        assumeTrue(LocalUsers.run(List.of("sh", "-c", "command -v node")).exit() == 0, "node is not installed: the Node.js client is not tested");
        client = TestCluster.home().resolve("clients/node");
        installFromRepository(client);
        TestCluster.writeJwtKey(tmp);
        cluster = TestCluster.start(tmp, "node", """
                ClusterName=e2e-node
                KillWait=5
                AuthAltTypes=auth/jwt
                AuthAltParameters=jwt_key=jwt_hs256.key
                NodeName=n[1-2] CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                """, "--public-tls"); // the client finds controller-ca.crt beside controller.addr and speaks TLS
        assertTrue(Files.exists(cluster.runDir.resolve("controller-ca.crt")), "the cluster serves TLS: a plaintext client cannot pass");
        work = Files.createDirectories(tmp.resolve("node-work"));
        if (isRoot()) {
            user = LocalUsers.ensure("gantry-node1");
            LocalUsers.run(List.of("chown", user.uid() + ":" + user.gid(), work.toString()));
            LocalUsers.run(List.of("chmod", "755", tmp.toString()));
        }
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** npm ci from the committed lock file, once per checkout; concurrent test classes do not share this directory. */
    private static synchronized void installFromRepository(Path client) throws Exception {
        if (Files.isDirectory(client.resolve("node_modules/@grpc/grpc-js"))) {
            return;
        }
        Shell.Result npm = LocalUsers.run(List.of("sh", "-c", "cd '" + client + "' && npm ci --no-audit --no-fund"));
        assertEquals(0, npm.exit(), "npm ci in " + client + " failed:\n" + npm);
    }

    private static boolean isRoot() throws Exception {
        return "0".equals(LocalUsers.run(List.of("id", "-u")).out().strip());
    }

    @Test
    void unitTests_pass() throws Exception {
        Shell.Result r = LocalUsers.run(List.of("sh", "-c", "cd '" + client + "' && node --test test/"));
        assertPassed(r, UNIT_TESTS);
    }

    @Test
    void againstALiveCluster_submitWaitListWatchCancelAndErrors_pass() throws Exception {
        Map<String, String> env = Map.of("GANTRY_RUN_DIR", cluster.runDir.toString(), "HOME", work.toString(), "GANTRY_CONTROLLER", "");
        String[] command = {"node", "--test", client.resolve("e2e").toString()};
        Shell.Result r = user != null ? LocalUsers.as(user, work, env, command) : runHere(env, command);
        assertPassed(r, CLUSTER_TESTS);
        if (user != null) {
            assertTrue(Files.readString(work.resolve(helloOutput(work))).contains("from " + user.name() + " in " + work),
                    "the job ran as the unprivileged user");
        }
    }

    private Shell.Result runHere(Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("env"));
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(List.of("sh", "-c", "cd '" + work + "' && exec \"$@\"", "sh"));
        cmd.addAll(List.of(command));
        return LocalUsers.run(cmd);
    }

    /** The output file of the "hello" job the cluster tests ran first. */
    private static String helloOutput(Path work) throws Exception {
        try (var files = Files.list(work)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("slurm-")).sorted().findFirst().orElseThrow();
        }
    }

    private static void assertPassed(Shell.Result r, int atLeast) {
        System.out.println(r.out().lines().filter(l -> l.matches("# (tests|pass|fail) \\d+") || l.startsWith("not ok")).toList()); // the run's summary, for the build log
        assertEquals(0, r.exit(), r.toString());
        Matcher pass = PASS.matcher(r.out());
        Matcher fail = FAIL.matcher(r.out());
        assertTrue(pass.find() && fail.find(), "no node --test summary:\n" + r);
        assertEquals(0, Integer.parseInt(fail.group(1)), r.toString());
        assertTrue(Integer.parseInt(pass.group(1)) >= atLeast, "only " + pass.group(1) + " passed, expected " + atLeast + ":\n" + r);
    }
}
