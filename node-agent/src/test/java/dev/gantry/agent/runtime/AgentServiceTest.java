package dev.gantry.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.agent.testing.FakeAgentHub;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole service as Micronaut wires it, talking gRPC over loopback to a fake controller. */
class AgentServiceTest {

    @TempDir
    Path tmp;

    @Test
    void agent_registers_servesNodeAgentHealthAndMetrics_andReportsExits() throws Exception {
        KeyPair keys = CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        int grpcPort = freePort();
        int httpPort = freePort();
        try (FakeAgentHub hub = new FakeAgentHub(true);
                ApplicationContext ctx = ApplicationContext.run(EmbeddedServer.class, settings(hub, grpcPort, httpPort)).getApplicationContext()) {
            ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcPort, InsecureChannelCredentials.create()).build();
            try {
                RegisterNodeRequest registration = Await.value("registration", () -> hub.registrations.isEmpty() ? null : hub.registrations.get(0));
                assertEquals("ctx1", registration.getNode());
                assertEquals("127.0.0.1:" + grpcPort, registration.getAgentAddress());
                assertEquals(3, registration.getHardware().getCpus());
                assertEquals(512, registration.getHardware().getRealMemoryMb());

                HealthCheckResponse health = HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance());
                assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());

                Path work = Files.createDirectories(tmp.resolve("work"));
                String script = "#!/bin/bash\necho hello from $SLURMD_NODENAME\nexit 4\n";
                LaunchJobRequest launch = LaunchJobRequest.newBuilder().setJobId(5).setScript(script).setWorkDir(work.toString()).build();
                NodeAgentGrpc.newBlockingStub(channel).launchJob(launch.toBuilder().setCredential(Credentials.aCredential(
                        new CredentialSigner(keys)).job(5).nodes("ctx1").covering(launch).sign()).build());
                ReportJobExitRequest exit = Await.value("exit of job 5", () -> hub.exitOf(5).orElse(null));
                assertEquals(4, exit.getExitCode());
                assertEquals("hello from ctx1\n", Files.readString(work.resolve("slurm-5.out")));

                String scrape = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/prometheus")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                String mode = ctx.getBean(dev.gantry.agent.process.JobSupervisor.class).containmentMode();
                assertTrue(scrape.contains("gantry_agent_containment_mode{mode=\"" + mode + "\"} 1.0"), scrape);
                assertTrue(scrape.contains("gantry_agent_launches_total{result=\"ok\"} 1.0"), scrape);
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    void agent_withoutNodeName_doesNotStart_sayingWhy() throws Exception {
        CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        try (FakeAgentHub hub = new FakeAgentHub(true)) {
            Map<String, Object> props = settings(hub, freePort(), freePort());
            props.put("gantry.agent.node-name", "");

            Throwable e = assertThrows(Throwable.class, () -> ApplicationContext.run(EmbeddedServer.class, props).close());

            Throwable cause = e;
            while (cause != null && !(cause instanceof AgentConfigurationException)) {
                cause = cause.getCause();
            }
            assertTrue(cause != null, "an AgentConfigurationException in " + e);
            assertEquals("GANTRY_NODE_NAME is not set: the agent must know the NodeName it runs as", cause.getMessage());
        }
    }

    private Map<String, Object> settings(FakeAgentHub hub, int grpcPort, int httpPort) {
        Map<String, Object> props = new HashMap<>();
        props.put("gantry.agent.node-name", "ctx1");
        props.put("gantry.agent.cred-public-key", tmp.resolve("cred.pub").toString());
        props.put("gantry.agent.spool-dir", tmp.resolve("spool").toString());
        props.put("gantry.agent.hardware.cpus", "3");
        props.put("gantry.agent.hardware.memory-mb", "512");
        props.put("gantry.scheduler-address", hub.address());
        props.put("grpc.server.port", grpcPort);
        props.put("grpc.server.host", "127.0.0.1");
        props.put("micronaut.server.port", httpPort);
        return props;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
