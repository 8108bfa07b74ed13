package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who a caller is, on a real local cluster run by root, tried by two unprivileged local users as they would: with the
 * Slurm commands (which authenticate through the cluster's local authenticator) and with their own gRPC program in
 * another language (Node), which can put anything in a request. The attacks that worked while the controller believed
 * request fields — a job as root, another user's job cancelled — are refused; a token from {@code scontrol token}
 * authenticates a Node client as its user; a user's flood of idle watch streams is capped while others are served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthenticationE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("Submitted batch job (\\d+)");
    private static final Pattern JWT = Pattern.compile("^SLURM_JWT=(\\S+)$", Pattern.MULTILINE);

    private TestCluster cluster;
    private LocalUsers.User alice;
    private LocalUsers.User bob;
    private NodeClient node;
    private Path aliceHome;
    private Path bobHome;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        alice = LocalUsers.ensure("gantry-auth1");
        bob = LocalUsers.ensure("gantry-auth2");
        TestCluster.writeJwtKey(tmp);
        cluster = TestCluster.start(tmp, "auth", """
                ClusterName=e2e-auth
                AuthAltTypes=auth/jwt
                AuthAltParameters=jwt_key=jwt_hs256.key
                NodeName=a[1-2] CPUs=1 RealMemory=1024
                PartitionName=debug Nodes=a[1-2] Default=YES MaxTime=60 State=UP
                """);
        aliceHome = home(tmp, alice);
        bobHome = home(tmp, bob);
        node = NodeClient.install();
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Path home(Path tmp, LocalUsers.User user) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("home-" + user.name()));
        LocalUsers.run(java.util.List.of("chown", user.uid() + ":" + user.gid(), dir.toString()));
        LocalUsers.run(java.util.List.of("chmod", "755", tmp.toString()));
        return dir;
    }

    /** A Slurm command run by {@code user} in its home, finding the cluster through GANTRY_RUN_DIR. */
    private Shell.Result command(LocalUsers.User user, String command, String... args) throws Exception {
        Path home = user == alice ? aliceHome : bobHome;
        String[] argv = new String[args.length + 1];
        argv[0] = TestCluster.home().resolve("bin").resolve(command).toString();
        System.arraycopy(args, 0, argv, 1, args.length);
        return LocalUsers.as(user, home, Map.of("GANTRY_RUN_DIR", cluster.runDir.toString(), "HOME", home.toString()), argv);
    }

    private String address() throws Exception {
        return Files.readString(cluster.runDir.resolve("controller.addr")).trim();
    }

    private Map<String, String> localToken() {
        return Map.of("GANTRY_AUTH_SOCKET", cluster.runDir.resolve("auth.sock").toString());
    }

    private Job job(long id) {
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    private long submitHeld(LocalUsers.User user) throws Exception {
        Shell.Result r = command(user, "sbatch", "-H", "--wrap", "true");
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    @Test
    void aUsersJob_isThatUsers_andClaimingRootOrAnotherUserFromTheirOwnProgram_isRefused() throws Exception {
        long id = submitHeld(alice);
        assertEquals("gantry-auth1", job(id).getSpec().getUser());
        assertEquals(alice.uid(), job(id).getSpec().getUid());

        String spec = "\"script\":\"#!/bin/sh\\nid\\n\",\"workDir\":\"/tmp\",\"timeLimitSeconds\":60,\"hold\":true";
        Shell.Result asRoot = node.call(alice, address(), localToken(), "SubmitJob",
                "{\"spec\":{" + spec + ",\"user\":\"root\",\"uid\":0,\"gid\":0}}");
        assertTrue(asRoot.out().startsWith("ERROR PERMISSION_DENIED user: root is not you"), asRoot.toString());
        Shell.Result uid0 = node.call(alice, address(), localToken(), "SubmitJob",
                "{\"spec\":{" + spec + ",\"user\":\"gantry-auth1\",\"uid\":0}}");
        assertTrue(uid0.out().startsWith("ERROR PERMISSION_DENIED uid: 0 is not yours"), uid0.toString());
        // uid 0 alone is proto3's "unset": the job is the caller's, never root's
        Shell.Result unset = node.call(alice, address(), localToken(), "SubmitJob", "{\"spec\":{" + spec + ",\"uid\":0}}");
        assertEquals(alice.uid(), job(Long.parseLong(unset.out().replaceAll("\\D", ""))).getSpec().getUid(), unset.toString());
        Shell.Result asBob = node.call(alice, address(), localToken(), "SubmitJob",
                "{\"spec\":{" + spec + ",\"user\":\"gantry-auth2\"}}");
        assertTrue(asBob.out().startsWith("ERROR PERMISSION_DENIED"), asBob.toString());

        Shell.Result own = node.call(alice, address(), localToken(), "SubmitJob", "{\"spec\":{" + spec + "}}");
        assertEquals(0, own.exit(), own.toString());
        long mine = Long.parseLong(own.out().replaceAll("\\D", ""));
        assertEquals("gantry-auth1", job(mine).getSpec().getUser());
    }

    @Test
    void anotherUsersJob_cannotBeCancelled_evenByClaimingToBeItsOwner() throws Exception {
        long alices = submitHeld(alice);

        Shell.Result scancel = command(bob, "scancel", Long.toString(alices));
        Shell.Result claim = node.call(bob, address(), localToken(), "CancelJob",
                "{\"jobIds\":[\"" + alices + "\"],\"user\":\"gantry-auth1\"}");

        assertEquals(1, scancel.exit(), scancel.toString());
        assertTrue(scancel.err().contains("Access/permission denied"), scancel.toString());
        assertTrue(claim.out().contains("Access/permission denied"), claim.toString());
        assertEquals(JobState.JOB_STATE_PENDING, job(alices).getState());
        assertEquals(0, command(alice, "scancel", Long.toString(alices)).exit());
    }

    @Test
    void aCallWithoutCredential_isUnauthenticated() throws Exception {
        Shell.Result none = node.call(alice, address(), Map.of(), "ListJobs", "{}");

        assertTrue(none.out().startsWith("ERROR UNAUTHENTICATED no credential"), none.toString());
    }

    @Test
    void aTokenFromScontrolToken_authenticatesANodeClientAsItsUser_andOnlyAnAdministratorGetsAnothersToken() throws Exception {
        Shell.Result token = command(alice, "scontrol", "token", "lifespan=300");
        Matcher m = JWT.matcher(token.out());
        assertTrue(m.find(), token.toString());

        // a client in another language with only the token, run by another user: it acts as the token's user
        Shell.Result submitted = node.call(bob, address(), Map.of("SLURM_JWT", m.group(1)), "SubmitJob",
                "{\"spec\":{\"script\":\"#!/bin/sh\\ntrue\\n\",\"workDir\":\"/tmp\",\"timeLimitSeconds\":60,\"hold\":true}}");
        assertEquals(0, submitted.exit(), submitted.toString());
        long id = Long.parseLong(submitted.out().replaceAll("\\D", ""));
        assertEquals("gantry-auth1", job(id).getSpec().getUser());

        Shell.Result forAlice = command(bob, "scontrol", "token", "username=gantry-auth1");
        assertEquals(1, forAlice.exit(), forAlice.toString());
        assertTrue(forAlice.err().contains("only an administrator"), forAlice.toString());
        Shell.Result forged = node.call(bob, address(), Map.of("SLURM_JWT", m.group(1).substring(0, m.group(1).length() - 4) + "AAAA"),
                "ListJobs", "{}");
        assertTrue(forged.out().startsWith("ERROR UNAUTHENTICATED"), forged.toString());
    }

    @Test
    void aUserClaimingToBeRoot_cannotRewriteTheNormalQos_andEveryoneCanStillSubmit() throws Exception {
        Shell.Result rewrite = node.call(alice, address(), localToken(), "UpdateQos",
                "{\"user\":\"root\",\"qos\":{\"name\":\"normal\",\"maxSubmitJobsPerUser\":0}}");

        assertTrue(rewrite.out().startsWith("ERROR PERMISSION_DENIED"), rewrite.toString());
        long id = submitHeld(bob);
        assertEquals("gantry-auth2", job(id).getSpec().getUser());
    }

    @Test
    void twoThousandIdleWatchStreamsFromOneUser_areCappedAndRefused_andTheControllerServesEveryoneMeanwhile() throws Exception {
        Path report = aliceHome.resolve("flood.json");
        Files.deleteIfExists(report);
        CompletableFuture<Shell.Result> flood = CompletableFuture.supplyAsync(() -> {
            try {
                return node.call(alice, address(), localToken(), "WatchFlood",
                        "{\"count\":2000,\"holdSeconds\":20,\"report\":\"" + report + "\"}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); !Files.exists(report) && !flood.isDone();) {
            assertTrue(System.nanoTime() < deadline, "the flood did not settle in 2 minutes");
            Thread.sleep(200);
        }
        assertTrue(Files.exists(report), "the flood ended before settling: " + (flood.isDone() ? flood.get() : ""));
        JsonNode counts = new ObjectMapper().readTree(Files.readString(report));

        // while alice's streams are open: at most watch_max_per_user (256) of them, every other one RESOURCE_EXHAUSTED
        // naming the limit it hit; and the controller answers another user at once
        assertEquals(256, counts.get("opened").asInt(), counts.toString());
        int refused = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = counts.get("refused").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            assertTrue(e.getKey().startsWith("RESOURCE_EXHAUSTED ")
                    && (e.getKey().contains("watch_max_per_user=256") || e.getKey().contains("rate limit: gantry-auth1 ")), e.getKey());
            refused += e.getValue().asInt();
        }
        assertEquals(2000 - 256, refused, counts.toString());
        assertFalse(flood.isDone(), "alice's streams are still held");
        long bobs = submitHeld(bob);
        Shell.Result queue = command(bob, "squeue", "-h", "-o", "%i");
        assertEquals(0, queue.exit(), queue.toString());
        assertTrue(queue.out().contains(Long.toString(bobs)), queue.toString());

        assertEquals(0, flood.get(120, TimeUnit.SECONDS).exit());
    }
}
