package dev.gantry.e2e;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.api.v1.SuspendJobRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The attacks of issue 15, as an unprivileged local user runs them against a local cluster (ServiceIdentityE2ETest
 * starts this class with setpriv as such a user). Not a test. Prints one line per attempt:
 * {@code ATTEMPT <name> <status code> <description>}, then {@code DONE}.
 *
 * <pre>java -cp … dev.gantry.e2e.ServiceAttacker SCHED_PUBLIC SCHED_INTERNAL AGENT_PUBLIC AGENT_INTERNAL JOB_ID NODE STATE_DIR</pre>
 */
public final class ServiceAttacker {

    private ServiceAttacker() {}

    public static void main(String[] args) throws Exception {
        String schedulerPublic = args[0];
        String schedulerInternal = args[1];
        String agentPublic = args[2];
        String agentInternal = args[3];
        long job = Long.parseLong(args[4]);
        String node = args[5];
        Path state = Path.of(args[6]);

        ReportJobExitRequest exit = ReportJobExitRequest.newBuilder().setJobId(job).setNode(node).setExitCode(0).build();
        HeartbeatRequest heartbeat = HeartbeatRequest.newBuilder().setNode(node).build();
        RegisterNodeRequest register = RegisterNodeRequest.newBuilder().setNode(node).setAgentAddress("127.0.0.1:1").build();
        ApplySliceRequest suspend = ApplySliceRequest.newBuilder().addSuspend(job).build();
        SignalJobRequest kill = SignalJobRequest.newBuilder().setJobId(job).setSignal(9).build();

        List<ManagedChannel> channels = new ArrayList<>();
        Function<ManagedChannel, ManagedChannel> keep = ch -> {
            channels.add(ch);
            return ch;
        };
        // 1. The public ports, where these services used to be open to anyone.
        ManagedChannel publicScheduler = keep.apply(ManagedChannelBuilder.forTarget(schedulerPublic).usePlaintext().build());
        ManagedChannel publicAgent = keep.apply(ManagedChannelBuilder.forTarget(agentPublic).usePlaintext().build());
        attempt("public-ReportJobExit", () -> hub(publicScheduler).reportJobExit(exit));
        attempt("public-Heartbeat", () -> hub(publicScheduler).heartbeat(heartbeat));
        attempt("public-RegisterNode", () -> hub(publicScheduler).registerNode(register));
        attempt("public-ApplySlice", () -> gang(publicScheduler).applySlice(suspend));
        attempt("public-SignalJob", () -> agent(publicAgent).signalJob(kill));
        attempt("public-SuspendJob", () -> agent(publicAgent).suspendJob(
                SuspendJobRequest.newBuilder().setJobId(job).build()));
        attempt("public-TerminateJob", () -> agent(publicAgent).terminateJob(
                TerminateJobRequest.newBuilder().setJobId(job).setKillWaitSeconds(0).build()));

        // 2. The internal ports, without a certificate (trusting whatever the server presents), and in plaintext.
        ManagedChannel noCertScheduler = keep.apply(NettyChannelBuilder.forTarget(schedulerInternal)
                .sslContext(GrpcSslContexts.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build()).build());
        ManagedChannel noCertAgent = keep.apply(NettyChannelBuilder.forTarget(agentInternal)
                .sslContext(GrpcSslContexts.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build()).build());
        ManagedChannel plainAgent = keep.apply(ManagedChannelBuilder.forTarget(agentInternal).usePlaintext().build());
        attempt("nocert-ReportJobExit", () -> hub(noCertScheduler).reportJobExit(exit));
        attempt("nocert-ApplySlice", () -> gang(noCertScheduler).applySlice(suspend));
        attempt("nocert-SignalJob", () -> agent(noCertAgent).signalJob(kill));
        attempt("plaintext-SignalJob", () -> agent(plainAgent).signalJob(kill));

        // 3. A certificate of the attacker's own making (its own CA), naming the node and scheduler-svc. The attacker
        //    trusts whatever server answers: only the server's check of the client certificate stands in the way.
        Path forge = Files.createTempDirectory("forged-ca");
        CertificateDirectory forged = CertificateDirectory.open(forge.resolve("tls"), "forged", Instant.now());
        forged.issue(new Peer.Node(node), List.of(), Instant.now(), Duration.ofDays(1));
        forged.issue(Peer.SCHEDULER, List.of(), Instant.now(), Duration.ofDays(1));
        ManagedChannel forgedNode = keep.apply(presenting(forged.load(new Peer.Node(node), Instant.now()), schedulerInternal));
        ManagedChannel forgedScheduler = keep.apply(presenting(forged.load(Peer.SCHEDULER, Instant.now()), agentInternal));
        attempt("forged-ReportJobExit", () -> hub(forgedNode).reportJobExit(exit));
        attempt("forged-SignalJob", () -> agent(forgedScheduler).signalJob(kill));

        // 4. The cluster's own keys, from the state directory.
        System.out.println("READ " + node + ".key " + readable(state.resolve("tls/nodes/" + node + ".key")));
        System.out.println("READ ca.key " + readable(state.resolve("tls/ca.key")));
        channels.forEach(ManagedChannel::shutdownNow);
        try (var files = Files.walk(forge)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
        System.out.println("DONE");
    }

    /** A TLS channel presenting {@code identity}'s certificate and trusting any server. */
    private static ManagedChannel presenting(ServiceTls identity, String target) throws javax.net.ssl.SSLException {
        return NettyChannelBuilder.forTarget(target).sslContext(GrpcSslContexts.forClient()
                .keyManager(identity.key(), identity.chain().toArray(java.security.cert.X509Certificate[]::new))
                .trustManager(InsecureTrustManagerFactory.INSTANCE).build()).build();
    }

    private static AgentHubGrpc.AgentHubBlockingStub hub(ManagedChannel ch) {
        return AgentHubGrpc.newBlockingStub(ch).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private static GangControlGrpc.GangControlBlockingStub gang(ManagedChannel ch) {
        return GangControlGrpc.newBlockingStub(ch).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private static NodeAgentGrpc.NodeAgentBlockingStub agent(ManagedChannel ch) {
        return NodeAgentGrpc.newBlockingStub(ch).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private static String readable(Path file) {
        try {
            Files.readAllBytes(file);
            return "yes";
        } catch (java.io.IOException e) {
            return "no (" + e.getClass().getSimpleName() + ")";
        }
    }

    private interface Call {
        Object run();
    }

    private static void attempt(String name, Call call) {
        Status status;
        try {
            Object ignored = call.run();
            status = Status.OK;
        } catch (RuntimeException e) {
            status = Status.fromThrowable(e);
        }
        String why = status.getDescription() == null ? "" : status.getDescription().replace('\n', ' ');
        System.out.println("ATTEMPT " + name + " " + status.getCode() + " " + why);
        System.out.flush();
    }
}
