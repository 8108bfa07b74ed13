package dev.gantry.agent.testing;

import dev.gantry.agent.grpc.ExitReportSender;
import dev.gantry.agent.grpc.NodeAgentGrpcService;
import dev.gantry.agent.job.LaunchGuard;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.process.BatchLauncher;
import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.JobTableStore;
import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.process.SiteScripts;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.credential.CredentialVerifier;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A node agent wired as in production (real processes, process-group containment, credential checks), its
 * NodeAgent service served in-process, reporting exits to a {@link FakeAgentHub}. Closing it kills every job
 * it still runs and waits until they are gone.
 */
public final class AgentRig implements AutoCloseable {

    public static final String NODE = "n1";

    public final FakeAgentHub hub = new FakeAgentHub();
    public final KeyPair keys;
    public final CredentialSigner signer;
    public final Containment containment;
    public final JobTableStore table;
    /** The jobs this rig re-adopted at start from an earlier rig over the same directory. */
    public final List<Long> adopted;
    public final Path workDir;
    public final Path spoolDir;
    public final JobSupervisor supervisor;
    public final NodeAgentGrpc.NodeAgentBlockingStub agent;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    private final ExitReportSender exits;
    private final Server server;
    private final ManagedChannel channel;

    public AgentRig(Path tempDir) {
        this(tempDir, JobTelemetry.NONE);
    }

    public AgentRig(Path tempDir, JobTelemetry telemetry) {
        this(tempDir, telemetry, new ProcessGroupContainment());
    }

    /** A rig with its own containment (cgroups: see {@link Cgroups}) and key pair. */
    public AgentRig(Path tempDir, JobTelemetry telemetry, Containment containment) {
        this(tempDir, telemetry, containment, CredentialKeys.generate());
    }

    /**
     * A rig over {@code tempDir}'s spool and work directories; a second rig over the same directory and keys is
     * the same agent restarted (it re-adopts what the first one left running).
     */
    public AgentRig(Path tempDir, JobTelemetry telemetry, Containment containment, KeyPair keys) {
        this(tempDir, telemetry, containment, keys, SiteScripts.NONE);
    }

    /** A rig whose agent runs the site's prolog and epilog. */
    public AgentRig(Path tempDir, JobTelemetry telemetry, Containment containment, KeyPair keys, SiteScripts siteScripts) {
        this(tempDir, telemetry, containment, keys, siteScripts, true);
    }

    /** A rig whose agent starts batch scripts through the JDK's ProcessBuilder instead of posix_spawn(3). */
    public static AgentRig withProcessBuilder(Path tempDir) {
        return new AgentRig(tempDir, JobTelemetry.NONE, new ProcessGroupContainment(), CredentialKeys.generate(), SiteScripts.NONE, false);
    }

    private AgentRig(Path tempDir, JobTelemetry telemetry, Containment containment, KeyPair keys, SiteScripts siteScripts, boolean posixSpawn) {
        try {
            this.keys = keys;
            this.signer = new CredentialSigner(keys);
            this.containment = containment;
            workDir = Files.createDirectories(tempDir.resolve("work"));
            spoolDir = tempDir.resolve("spool");
            InstantSource clock = InstantSource.system();
            table = new JobTableStore(spoolDir.resolve("state"));
            exits = new ExitReportSender(hub.stub(), NODE, scheduler, new Backoff(Duration.ofMillis(50), Duration.ofMillis(200)),
                    Duration.ofSeconds(10), table);
            // the guard's memory is journaled as on a real agent: a rig over the same directory is the agent restarted
            dev.gantry.agent.process.LaunchGuardJournal journal = new dev.gantry.agent.process.LaunchGuardJournal(spoolDir.resolve("state"));
            LaunchGuard guard = new LaunchGuard(clock, Duration.ofHours(1), journal);
            guard.restore(journal.load());
            supervisor = new JobSupervisor(NODE,
                    new CredentialVerifier(keys.getPublic(), clock),
                    guard,
                    new BatchLauncher(spoolDir, NODE, BatchLauncher.defaultTools(), siteScripts, posixSpawn),
                    containment,
                    table,
                    scheduler, clock, exits, telemetry,
                    new JobSupervisor.Timing(Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(200)));
            adopted = supervisor.adoptFromTable();
            String name = InProcessServerBuilder.generateName();
            server = InProcessServerBuilder.forName(name).addService(new NodeAgentGrpcService(supervisor)).build().start();
            channel = InProcessChannelBuilder.forName(name).build();
            agent = NodeAgentGrpc.newBlockingStub(channel).withInterceptors(new ClientInterceptor() {
                @Override
                public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
                    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                        @Override
                        @SuppressWarnings("unchecked")
                        public void sendMessage(Q message) {
                            super.sendMessage(message instanceof LaunchJobRequest r && !r.hasCredential() ? (Q) signed(r) : message);
                        }
                    };
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A LaunchJob request for {@code script}, to adjust and send through {@link #agent}, which signs a credential
     * covering it as the controller would when it carries none ({@link #signed} for a request used otherwise).
     */
    public LaunchJobRequest.Builder request(long jobId, String script) {
        return LaunchJobRequest.newBuilder()
                .setJobId(jobId)
                .setJobName("job" + jobId)
                .setScript(script)
                .setWorkDir(workDir.toString())
                .putEnvironment("PATH", "/usr/local/bin:/usr/bin:/bin")
                .putEnvironment("SUBMITTED", "yes")
                .setPartition("debug")
                .setNumTasks(1)
                .setCpusOnNode(1)
                .setSubmitDir(workDir.toString())
                .setSubmitHost("login1")
                .setTimeLimitSeconds(-1);
    }

    /** {@code request} with a credential covering it, for this node, as the controller signs one. */
    public LaunchJobRequest signed(LaunchJobRequest request) {
        return request.toBuilder().setCredential(Credentials.aCredential(signer).job(request.getJobId()).nodes(NODE)
                .covering(request).sign()).build();
    }

    public LaunchJobResponse launch(long jobId, String script) {
        return agent.launchJob(request(jobId, script).build());
    }

    public void terminate(long jobId, long killWaitSeconds) {
        agent.terminateJob(TerminateJobRequest.newBuilder().setJobId(jobId).setKillWaitSeconds(killWaitSeconds).setReason("cancelled").build());
    }

    public ReportJobExitRequest awaitExit(long jobId) {
        return Await.value("the exit report of job " + jobId, () -> hub.exitOf(jobId).orElse(null));
    }

    /** The job's default output file, slurm-&lt;id&gt;.out in the work dir. */
    public Path outputOf(long jobId) {
        return workDir.resolve("slurm-" + jobId + ".out");
    }

    /** Waits until the job's output contains {@code text} and returns the output. */
    public String awaitOutput(long jobId, String text) {
        return Await.value("'" + text + "' in the output of job " + jobId, () -> {
            String out = read(outputOf(jobId));
            return out.contains(text) ? out : null;
        });
    }

    public static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Stops this agent as a crash or restart would: its services and threads go away, its jobs keep running, its
     * job table and unacknowledged exits stay on disk.
     */
    public void abandon() {
        supervisor.close();
        channel.shutdownNow();
        server.shutdownNow();
        exits.close();
        scheduler.shutdownNow();
        hub.close();
    }

    @Override
    public void close() {
        for (long id : supervisor.runningJobIds()) {
            supervisor.terminate(id, Duration.ZERO, "test over");
        }
        Await.until("every job of the rig gone", () -> supervisor.runningJobIds().isEmpty());
        supervisor.close();
        channel.shutdownNow();
        server.shutdownNow();
        exits.close();
        scheduler.shutdownNow();
        hub.close();
        if (containment instanceof dev.gantry.agent.process.CgroupContainment cgroups) {
            Cgroups.removeScope(cgroups.layout());
        }
    }
}
