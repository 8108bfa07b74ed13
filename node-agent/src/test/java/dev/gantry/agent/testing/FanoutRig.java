package dev.gantry.agent.testing;

import dev.gantry.agent.grpc.ExitReportSender;
import dev.gantry.agent.grpc.LaunchForwarder;
import dev.gantry.agent.grpc.NodeAgentGrpcService;
import dev.gantry.agent.grpc.StepAgentGrpcService;
import dev.gantry.agent.job.LaunchGuard;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.process.BatchLauncher;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.JobTableStore;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.process.StepRunner;
import dev.gantry.api.v1.FanoutTarget;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.authn.CallerAuthenticator;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.credential.CredentialVerifier;
import dev.gantry.common.credential.Ed25519;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several node agents (n1, n2, …) wired as in production and served in-process, sharing one controller key and
 * one work directory, each forwarding multi-node launches to the others over in-process channels (their
 * addresses are the in-process server names). Each counts the forwards it sent. Closing kills every job.
 */
public final class FanoutRig implements AutoCloseable {

    /** One agent of the rig. */
    public static final class Node {
        public final String name;
        public final String address = InProcessServerBuilder.generateName();
        public final JobSupervisor supervisor;
        public final AtomicInteger forwardsOk = new AtomicInteger();
        public final AtomicInteger forwardsFailed = new AtomicInteger();
        public final java.util.concurrent.atomic.AtomicLong stepTasks = new java.util.concurrent.atomic.AtomicLong();
        final FakeAgentHub hub = new FakeAgentHub();
        final ExitReportSender exits;
        final LaunchForwarder forwarder;
        final Server server;

        Node(String name, Path dir, KeyPair keys, SiteScripts siteScripts, ScheduledExecutorService scheduler) throws IOException {
            this.name = name;
            JobTableStore table = new JobTableStore(dir.resolve("state"));
            InstantSource clock = InstantSource.system();
            exits = new ExitReportSender(hub.stub(), name, scheduler, new Backoff(Duration.ofMillis(50), Duration.ofMillis(200)),
                    Duration.ofSeconds(10), table);
            supervisor = new JobSupervisor(name, new CredentialVerifier(keys.getPublic(), clock), new LaunchGuard(clock, Duration.ofHours(1)),
                    new BatchLauncher(dir, name, BatchLauncher.defaultTools(), siteScripts), new ProcessGroupContainment(), table,
                    scheduler, clock, exits, JobTelemetry.NONE,
                    new JobSupervisor.Timing(Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(200)));
            forwarder = new LaunchForwarder((node, a) -> InProcessChannelBuilder.forName(a).build(),
                    ok -> (ok ? forwardsOk : forwardsFailed).incrementAndGet());
            // srun's calls are authenticated as on a real agent: local tokens signed with the rig's authentication key
            Callers callers = new Callers(new CallerAuthenticator(new CallerAuthenticator.Settings(true, false, Optional.empty(),
                    false, new Jwt.Keys(Optional.empty(), Map.of(Tokens.LOCAL_KEY_ID, Ed25519.VerifyingKey.of(AUTH_KEY.getPublic())))),
                    clock), Set.of("gantry.v1.StepAgent"));
            server = InProcessServerBuilder.forName(address).addService(new NodeAgentGrpcService(supervisor, name, forwarder))
                    .addService(ServerInterceptors.intercept(new StepAgentGrpcService(name, new CredentialVerifier(keys.getPublic(), clock),
                            supervisor, new StepRunner(BatchLauncher.defaultTools()), stepTasks::addAndGet), callers))
                    .build().start();
        }

        public boolean exitReported(long jobId) {
            return hub.exitOf(jobId).isPresent();
        }
    }

    public final List<Node> nodes = new ArrayList<>();
    public final CredentialSigner signer;
    public final Path workDir;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    private final List<ManagedChannel> channels = new ArrayList<>();

    public FanoutRig(Path tempDir, int count, SiteScripts siteScripts) {
        try {
            KeyPair keys = CredentialKeys.generate();
            signer = new CredentialSigner(keys);
            workDir = Files.createDirectories(tempDir.resolve("work"));
            for (int i = 1; i <= count; i++) {
                nodes.add(new Node("n" + i, tempDir.resolve("spool-n" + i), keys, siteScripts, scheduler));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Node node(String name) {
        return nodes.stream().filter(n -> n.name.equals(name)).findFirst().orElseThrow();
    }

    /** The authentication key of the rig's local authenticator: its tokens are what srun sends. */
    static final KeyPair AUTH_KEY = CredentialKeys.generate();

    /** The StepAgent of node {@code name}, called by the jobs' user (the test's own uid, as the credentials name it). */
    public dev.gantry.api.v1.StepAgentGrpc.StepAgentBlockingStub stepAgent(String name) {
        return stepAgentAs(name, new Identity("alice", Credentials.OWN_UID, Credentials.OWN_UID, List.of(), "local"));
    }

    /** The StepAgent of node {@code name}, called by {@code who} (null: with no credential). */
    public dev.gantry.api.v1.StepAgentGrpc.StepAgentBlockingStub stepAgentAs(String name, Identity who) {
        ManagedChannel ch = InProcessChannelBuilder.forName(node(name).address).build();
        channels.add(ch);
        var stub = dev.gantry.api.v1.StepAgentGrpc.newBlockingStub(ch).withDeadlineAfter(60, java.util.concurrent.TimeUnit.SECONDS);
        if (who == null) {
            return stub;
        }
        Metadata headers = new Metadata();
        headers.put(Callers.AUTHORIZATION, "Bearer " + Jwt.signEd25519(Tokens.localClaims(who, name, java.time.Instant.now(), "rig"),
                Tokens.LOCAL_KEY_ID, Ed25519.SigningKey.of(AUTH_KEY.getPrivate())));
        return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    /** The first node's agent, where the controller sends a launch. */
    public NodeAgentGrpc.NodeAgentBlockingStub first() {
        ManagedChannel ch = InProcessChannelBuilder.forName(nodes.get(0).address).build();
        channels.add(ch);
        return NodeAgentGrpc.newBlockingStub(ch).withDeadlineAfter(60, java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * A launch of {@code script} on {@code nodeNames} as the controller sends it: to the first, with a credential
     * naming {@code credentialNodes}, the others to forward to in a tree of {@code width}.
     */
    public LaunchJobRequest launch(long jobId, String script, int width, List<String> nodeNames, List<String> credentialNodes) {
        LaunchJobRequest.Builder b = LaunchJobRequest.newBuilder()
                .setJobId(jobId).setJobName("job" + jobId).setScript(script).setWorkDir(workDir.toString())
                .putEnvironment("PATH", "/usr/local/bin:/usr/bin:/bin")
                .setPartition("debug").setNumTasks(nodeNames.size()).setCpusOnNode(1)
                .setSubmitDir(workDir.toString()).setTimeLimitSeconds(-1)
                .setBatchHost(nodeNames.get(0)).setTreeWidth(width);
        for (String name : nodeNames.subList(1, nodeNames.size())) {
            String address = nodes.stream().filter(n -> n.name.equals(name)).map(n -> n.address).findFirst().orElse("unserved-" + name);
            b.addForwardTo(FanoutTarget.newBuilder().setNode(name).setAddress(address).setCpusOnNode(1));
        }
        return b.setCredential(Credentials.aCredential(signer).job(jobId).nodes(credentialNodes.toArray(String[]::new))
                .covering(b.build()).sign()).build();
    }

    @Override
    public void close() {
        for (Node n : nodes) {
            for (long id : n.supervisor.runningJobIds()) {
                n.supervisor.terminate(id, Duration.ZERO, "test over");
            }
        }
        for (Node n : nodes) {
            Await.until("every job on " + n.name + " gone", () -> n.supervisor.runningJobIds().isEmpty());
            n.supervisor.close();
            n.server.shutdownNow();
            n.forwarder.close();
            n.exits.close();
            n.hub.close();
        }
        channels.forEach(ManagedChannel::shutdownNow);
        scheduler.shutdownNow();
    }
}
