package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListNodesRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry up --public-tls}: the client API over TLS (docs/security.md, "TLS on the public port"). The commands
 * verify the controller with the CA beside controller.addr (or GANTRY_CONTROLLER_CA); a plaintext client gets nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PublicTlsE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "public-tls", """
                ClusterName=public-tls-e2e
                NodeName=t1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=t1 Default=YES MaxTime=60 State=UP
                """, "--public-tls");
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theCommands_talkTls_verifiedWithTheClusterCa() throws Exception {
        assertTrue(Files.exists(cluster.runDir.resolve("controller-ca.crt")));
        long id = cluster.submit("-o", "/dev/null", "--wrap", "true");

        assertEquals(JobState.JOB_STATE_COMPLETED, cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED).getState());
        Shell.Result squeue = cluster.shell.run(cluster.work, "squeue", "-t", "all");
        assertEquals(0, squeue.exit(), squeue.toString());
        assertTrue(squeue.out().contains(Long.toString(id)), squeue.out());
    }

    @Test
    void aPlaintextClient_getsNothing_andACommandWithoutTheCaFails() throws Exception {
        String address = Files.readString(cluster.runDir.resolve("controller.addr")).trim();
        ManagedChannel plain = ManagedChannelBuilder.forTarget(address).usePlaintext().build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ControllerGrpc.newBlockingStub(plain)
                    .withDeadlineAfter(20, TimeUnit.SECONDS).listNodes(ListNodesRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
        } finally {
            plain.shutdownNow();
        }
        // the address named explicitly, and no CA: the command speaks plaintext and fails; with GANTRY_CONTROLLER_CA it works
        Map<String, String> explicit = Map.of("GANTRY_RUN_DIR", "", "GANTRY_CONTROLLER", address,
                "GANTRY_AUTH_SOCKET", cluster.runDir.resolve("auth.sock").toString());
        Shell.Result without = new Shell(TestCluster.home(), explicit).run(cluster.work, "sinfo");
        assertNotEquals(0, without.exit(), without.toString());
        Map<String, String> withCa = new java.util.HashMap<>(explicit);
        withCa.put("GANTRY_CONTROLLER_CA", cluster.runDir.resolve("controller-ca.crt").toString());
        Shell.Result with = new Shell(TestCluster.home(), withCa).run(cluster.work, "sinfo");
        assertEquals(0, with.exit(), with.toString());
        assertTrue(with.out().contains("debug*"), with.out());
    }
}
