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
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.Peer;
import dev.gantry.api.v1.SignalJobRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole service as Micronaut wires it, talking gRPC over loopback to a fake controller: mutual TLS to the
 * controller, NodeAgent on its internal port for scheduler-svc only, health (and StepAgent) on its public port.
 */
class AgentServiceTest {

    @TempDir
    Path tmp;
    private CertificateDirectory certs;

    @BeforeEach
    void certificates() throws Exception {
        Instant now = Instant.now();
        certs = CertificateDirectory.open(tmp.resolve("tls"), "test", now);
        for (Peer p : List.of(Peer.SCHEDULER, Peer.GANG, new Peer.Node("ctx1"), new Peer.Node("ctx2"))) {
            certs.issue(p, List.of(), now, Duration.ofDays(1));
        }
    }

    @Test
    void agent_registers_servesNodeAgentHealthAndMetrics_andReportsExits() throws Exception {
        KeyPair keys = CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        int grpcPort = freePort();
        int httpPort = freePort();
        int internalPort = freePort();
        try (FakeAgentHub hub = new FakeAgentHub(certs.load(Peer.SCHEDULER, Instant.now()));
                ApplicationContext ctx = ApplicationContext.run(EmbeddedServer.class, settings(hub, grpcPort, httpPort, internalPort))
                        .getApplicationContext()) {
            ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcPort, InsecureChannelCredentials.create()).build();
            ManagedChannel internal = new InternalChannels(certs.load(Peer.SCHEDULER, Instant.now()))
                    .open("127.0.0.1:" + internalPort, new Peer.Node("ctx1"));
            try {
                RegisterNodeRequest registration = Await.value("registration", () -> hub.registrations.isEmpty() ? null : hub.registrations.get(0));
                assertEquals("ctx1", registration.getNode());
                assertEquals("127.0.0.1:" + internalPort, registration.getAgentAddress());
                assertEquals("127.0.0.1:" + grpcPort, registration.getStepAddress());
                assertEquals(3, registration.getHardware().getCpus());
                assertEquals(512, registration.getHardware().getRealMemoryMb());

                HealthCheckResponse health = HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance());
                assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());

                Path work = Files.createDirectories(tmp.resolve("work"));
                String script = "#!/bin/bash\necho hello from $SLURMD_NODENAME\nexit 4\n";
                LaunchJobRequest launch = LaunchJobRequest.newBuilder().setJobId(5).setScript(script).setWorkDir(work.toString()).build();
                NodeAgentGrpc.newBlockingStub(internal).launchJob(launch.toBuilder().setCredential(Credentials.aCredential(
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
                internal.shutdownNow();
            }
        }
    }

    /**
     * The job-control calls that let any local user kill, suspend or launch another user's job: not served on the
     * public port; on the internal port scheduler-svc's alone (a peer agent may forward launches only).
     */
    @Test
    void nodeAgent_isNotOnThePublicPort_andInternallyOnlyForTheController() throws Exception {
        CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        int grpcPort = freePort();
        int internalPort = freePort();
        try (FakeAgentHub hub = new FakeAgentHub(certs.load(Peer.SCHEDULER, Instant.now()));
                ApplicationContext ctx = ApplicationContext.run(EmbeddedServer.class, settings(hub, grpcPort, freePort(), internalPort))
                        .getApplicationContext()) {
            ManagedChannel open = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcPort, InsecureChannelCredentials.create()).build();
            ManagedChannel asPeer = new InternalChannels(certs.load(new Peer.Node("ctx2"), Instant.now()))
                    .open("127.0.0.1:" + internalPort, new Peer.Node("ctx1"));
            ManagedChannel asGang = new InternalChannels(certs.load(Peer.GANG, Instant.now()))
                    .open("127.0.0.1:" + internalPort, new Peer.Node("ctx1"));
            try {
                SignalJobRequest kill = SignalJobRequest.newBuilder().setJobId(5).setSignal(9).build();
                StatusRuntimeException publicPort = assertThrows(StatusRuntimeException.class,
                        () -> NodeAgentGrpc.newBlockingStub(open).signalJob(kill));
                StatusRuntimeException peer = assertThrows(StatusRuntimeException.class,
                        () -> NodeAgentGrpc.newBlockingStub(asPeer).signalJob(kill));
                StatusRuntimeException gang = assertThrows(StatusRuntimeException.class,
                        () -> NodeAgentGrpc.newBlockingStub(asGang).launchJob(LaunchJobRequest.newBuilder().setJobId(5).build()));

                assertEquals(Status.Code.UNIMPLEMENTED, publicPort.getStatus().getCode());
                assertEquals(Status.Code.PERMISSION_DENIED, peer.getStatus().getCode());
                assertEquals("gantry.v1.NodeAgent/SignalJob refused to node ctx2: only scheduler-svc may call it",
                        peer.getStatus().getDescription());
                assertEquals("gantry.v1.NodeAgent/LaunchJob refused to service gang-svc: only scheduler-svc or a node agent may call it",
                        gang.getStatus().getDescription());
            } finally {
                open.shutdownNow();
                asPeer.shutdownNow();
                asGang.shutdownNow();
            }
        }
    }

    @Test
    void agent_withAnotherNodesCertificate_doesNotStart_sayingWhy() throws Exception {
        CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        try (FakeAgentHub hub = new FakeAgentHub()) {
            Map<String, Object> props = settings(hub, freePort(), freePort(), freePort());
            props.put("gantry.tls.cert", certs.certificate(new Peer.Node("ctx2")).toString());
            props.put("gantry.tls.key", certs.key(new Peer.Node("ctx2")).toString());

            Throwable e = assertThrows(Throwable.class, () -> ApplicationContext.run(EmbeddedServer.class, props).close());

            Throwable cause = e;
            while (cause != null && !(cause instanceof AgentConfigurationException)) {
                cause = cause.getCause();
            }
            assertTrue(cause != null, "an AgentConfigurationException in " + e);
            assertEquals("GANTRY_TLS_CERT=" + certs.certificate(new Peer.Node("ctx2")) + ": names node ctx2, but this is node ctx1",
                    cause.getMessage());
        }
    }

    @Test
    void agent_withoutNodeName_doesNotStart_sayingWhy() throws Exception {
        CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
        try (FakeAgentHub hub = new FakeAgentHub()) {
            Map<String, Object> props = settings(hub, freePort(), freePort(), freePort());
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

    private Map<String, Object> settings(FakeAgentHub hub, int grpcPort, int httpPort, int internalPort) {
        Map<String, Object> props = new HashMap<>();
        props.put("gantry.agent.node-name", "ctx1");
        props.put("gantry.agent.cred-public-key", tmp.resolve("cred.pub").toString());
        props.put("gantry.agent.spool-dir", tmp.resolve("spool").toString());
        props.put("gantry.agent.hardware.cpus", "3");
        props.put("gantry.agent.hardware.memory-mb", "512");
        props.put("gantry.scheduler-address", hub.hasAddress() ? hub.address() : "127.0.0.1:1");
        props.put("gantry.internal.port", internalPort);
        props.put("gantry.tls.ca", certs.caCertificate().toString());
        props.put("gantry.tls.cert", certs.certificate(new Peer.Node("ctx1")).toString());
        props.put("gantry.tls.key", certs.key(new Peer.Node("ctx1")).toString());
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
