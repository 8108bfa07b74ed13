package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * AuthType=auth/munge with a real munged, as a Slurm site runs it: a user's commands authenticate with MUNGE
 * credentials, a credential is single-use (another user replaying one is refused, as munged refuses a replay), one made
 * with another key is refused, and bearer tokens are not accepted on such a cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// installs a Debian package when missing (munge, prometheus): one apt-get at a time (the e2e classes run two at once)
@org.junit.jupiter.api.parallel.ResourceLock("apt-get")
class MungeAuthenticationE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("Submitted batch job (\\d+)");

    private Munged munged;
    private Munged otherKey;
    private TestCluster cluster;
    private LocalUsers.User alice;
    private LocalUsers.User bob;
    private NodeClient node;
    private Path aliceHome;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        alice = LocalUsers.ensure("gantry-auth1");
        bob = LocalUsers.ensure("gantry-auth2");
        munged = Munged.start(tmp.resolve("munge"));
        otherKey = Munged.start(tmp.resolve("munge-other"));
        cluster = TestCluster.start(tmp, "munge", """
                ClusterName=e2e-munge
                AuthType=auth/munge
                AuthInfo=socket=%s
                NodeName=m[1-2] CPUs=1 RealMemory=1024
                PartitionName=debug Nodes=m[1-2] Default=YES MaxTime=60 State=UP
                """.formatted(munged.socket));
        LocalUsers.run(java.util.List.of("chmod", "755", tmp.toString()));
        aliceHome = Files.createDirectories(tmp.resolve("home-alice"));
        LocalUsers.run(java.util.List.of("chown", alice.uid() + ":" + alice.gid(), aliceHome.toString()));
        node = NodeClient.install();
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (munged != null) {
            munged.close();
        }
        if (otherKey != null) {
            otherKey.close();
        }
    }

    private String address() throws Exception {
        return Files.readString(cluster.runDir.resolve("controller.addr")).trim();
    }

    @Test
    void aUsersCommands_authenticateWithMunge_andTheJobIsTheirs() throws Exception {
        Shell.Result r = LocalUsers.as(alice, aliceHome, Map.of("GANTRY_RUN_DIR", cluster.runDir.toString(),
                "HOME", aliceHome.toString(), "GANTRY_MUNGE_SOCKET", munged.socket.toString()),
                TestCluster.home().resolve("bin/sbatch").toString(), "-H", "--wrap", "true");

        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        long id = Long.parseLong(m.group(1));
        var job = cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
        assertEquals("gantry-auth1", job.getSpec().getUser());
        assertEquals(alice.uid(), job.getSpec().getUid());
    }

    @Test
    void aMungeCredentialIsSingleUse_anotherUserReplayingItIsRefused() throws Exception {
        String credential = munged.credentialOf(alice);
        Map<String, String> asMunge = Map.of("GANTRY_AUTHORIZATION", "Munge " + credential);

        Shell.Result first = node.call(alice, address(), asMunge, "ListJobs", "{}");
        Shell.Result replayed = node.call(bob, address(), asMunge, "ListJobs", "{}");

        assertEquals(0, first.exit(), first.toString());
        assertTrue(replayed.out().startsWith("ERROR UNAUTHENTICATED MUNGE credential refused"), replayed.toString());
        assertTrue(replayed.out().toLowerCase().contains("replay"), replayed.toString());
    }

    @Test
    void aCredentialOfAnotherKey_andBearerTokens_areRefused() throws Exception {
        Shell.Result foreign = node.call(alice, address(), Map.of("GANTRY_AUTHORIZATION", "Munge " + otherKey.credentialOf(alice)),
                "ListJobs", "{}");
        Shell.Result bearer = node.call(alice, address(), Map.of("SLURM_JWT", "eyJhbGciOiJIUzI1NiJ9.e30.x"), "ListJobs", "{}");

        assertTrue(foreign.out().startsWith("ERROR UNAUTHENTICATED MUNGE credential refused"), foreign.toString());
        assertTrue(bearer.out().startsWith("ERROR UNAUTHENTICATED tokens are not accepted here"), bearer.toString());
    }
}
