package dev.gantry.agent.runtime;

import dev.gantry.agent.auth.LocalAuthenticator;
import dev.gantry.agent.grpc.ExitReportSender;
import dev.gantry.agent.grpc.HubSession;
import dev.gantry.agent.grpc.LaunchForwarder;
import dev.gantry.agent.grpc.NodeAgentGrpcService;
import dev.gantry.agent.grpc.StepAgentGrpcService;
import dev.gantry.agent.job.LaunchGuard;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.node.Hardware;
import dev.gantry.agent.node.HubLink;
import dev.gantry.agent.node.NodeIdentity;
import dev.gantry.agent.process.BatchLauncher;
import dev.gantry.agent.process.Containment;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.JobTableStore;
import dev.gantry.agent.process.LaunchGuardJournal;
import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.process.SpoolDirectory;
import dev.gantry.agent.process.StepRunner;
import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialVerifier;
import dev.gantry.common.credential.Ed25519;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.failover.Fencing;
import dev.gantry.common.tls.ServiceTls;
import dev.gantry.common.tls.TlsConfigurationException;
import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the agent: settings, the job supervisor, the NodeAgent service and the link to the controller. */
@Factory
class AgentFactory {

    private static final Logger LOG = LoggerFactory.getLogger(AgentFactory.class);

    static final String JOBS = "gantry-agent-jobs";
    static final String HUB = "gantry-agent-hub";
    private static final Duration CALL_DEADLINE = Duration.ofSeconds(10);
    private static final Backoff BACKOFF = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
    /**
     * Must exceed the longest credential lifetime the controller issues (300 s; see LaunchGuard): a credential is
     * refused once expired anyway. Kept on disk for that long too (LaunchGuardJournal), so a restarted agent still
     * refuses a used credential.
     */
    private static final Duration LAUNCH_MEMORY = Duration.ofMinutes(15);
    /** Slurm's PrologEpilogTimeout default is unlimited; a hung prolog must not hold a launch forever. */
    private static final Duration PROLOG_EPILOG_TIMEOUT = Duration.ofMinutes(5);

    @Context
    @Singleton
    AgentSettings settings(
            @Value("${gantry.agent.node-name:}") String nodeName,
            @Value("${gantry.scheduler-address:}") String schedulerAddress,
            @Value("${gantry.agent.cred-public-key:}") String credentialKey,
            @Value("${gantry.agent.advertise-address:}") String advertiseAddress,
            @Value("${gantry.agent.spool-dir:}") String spoolDir,
            @Value("${grpc.server.host:127.0.0.1}") String bindHost,
            @Value("${grpc.server.port:6820}") int grpcPort,
            @Value("${gantry.agent.hardware.cpus:}") String cpus,
            @Value("${gantry.agent.hardware.sockets:}") String sockets,
            @Value("${gantry.agent.hardware.cores-per-socket:}") String coresPerSocket,
            @Value("${gantry.agent.hardware.threads-per-core:}") String threadsPerCore,
            @Value("${gantry.agent.hardware.memory-mb:}") String memoryMb,
            @Value("${gantry.internal.port:6830}") int internalPort,
            @Value("${gantry.agent.step-address:}") String stepAddress) {
        return AgentSettings.from(new AgentSettings.Raw(nodeName, schedulerAddress, credentialKey, advertiseAddress,
                spoolDir, bindHost, grpcPort, cpus, sockets, coresPerSocket, threadsPerCore, memoryMb, internalPort, stepAddress));
    }

    /**
     * This agent's certificate (it must name this node: GANTRY_NODE_NAME), the cluster CA and the key (GANTRY_TLS_*):
     * checked at start. The agent presents it on its internal port and to scheduler-svc and its peers.
     */
    @Singleton
    ServiceTls tls(AgentSettings settings, @Value("${gantry.tls.ca:}") String ca, @Value("${gantry.tls.cert:}") String cert,
            @Value("${gantry.tls.key:}") String key) {
        try {
            return ServiceTls.load(ca, cert, key, new Peer.Node(settings.nodeName()), Instant.now());
        } catch (TlsConfigurationException e) {
            throw new AgentConfigurationException(e.getMessage(), e);
        }
    }

    @Singleton
    InternalChannels channels(ServiceTls tls) {
        return new InternalChannels(tls);
    }

    @Singleton
    Hardware hardware(AgentSettings settings) {
        Hardware.Emulation emulation = settings.emulation();
        try {
            return Hardware.detect(Files.readString(Path.of("/proc/cpuinfo")), Files.readString(Path.of("/proc/meminfo"))).emulate(emulation);
        } catch (IOException | IllegalArgumentException e) {
            if (emulation.cpus() != null && emulation.memoryMb() != null) {
                return new Hardware(1, 1, 1, 1, 1).emulate(emulation);
            }
            throw new AgentConfigurationException("cannot detect this node's hardware (" + e.getMessage()
                    + "): set GANTRY_NODE_CPUS and GANTRY_NODE_MEMORY_MB", e);
        }
    }

    /** Job work: kill timers, waiting for groups to empty, usage samples. Never blocks on the network. */
    @Singleton
    @Named(JOBS)
    @Bean(preDestroy = "shutdownNow")
    ScheduledExecutorService jobScheduler() {
        return Executors.newScheduledThreadPool(2, Thread.ofPlatform().name("agent-jobs-", 0).daemon(true).factory());
    }

    /** Calls to the controller (registration, heartbeats, exit reports), which may block until their deadline. */
    @Singleton
    @Named(HUB)
    @Bean(preDestroy = "shutdownNow")
    ScheduledExecutorService hubScheduler() {
        return Executors.newScheduledThreadPool(2, Thread.ofPlatform().name("agent-hub-", 0).daemon(true).factory());
    }

    /** scheduler-svc's internal port (AgentHub), over mutual TLS: only scheduler-svc's certificate is accepted. */
    @Singleton
    @Named(HUB)
    @Bean(preDestroy = "shutdownNow")
    ManagedChannel hubChannel(AgentSettings settings, InternalChannels channels, Fencing.Guard fencing) {
        // several addresses: the active controller and its standby; calls follow the one that answers (and take no
        // answer from a controller older than one heard)
        return dev.gantry.common.tls.SchedulerChannels.open(channels, settings.schedulerAddress(), fencing);
    }

    /** The job table and unacknowledged exits, in the spool directory's {@code state/} (survives agent restarts). */
    @Singleton
    JobTableStore jobTable(AgentSettings settings) {
        try {
            SpoolDirectory.prepare(settings.spoolDir());
        } catch (IOException | RuntimeException e) {
            throw new AgentConfigurationException("GANTRY_AGENT_SPOOL_DIR=" + settings.spoolDir() + ": " + e.getMessage(), e);
        }
        try {
            return new JobTableStore(settings.spoolDir().resolve("state"));
        } catch (IOException | RuntimeException e) {
            throw new AgentConfigurationException("GANTRY_AGENT_SPOOL_DIR=" + settings.spoolDir() + ": cannot create state/: " + e.getMessage(), e);
        }
    }

    @Singleton
    @Bean(preDestroy = "close")
    ExitReportSender exitReports(AgentSettings settings, JobTableStore table, @Named(HUB) ManagedChannel channel,
            @Named(HUB) ScheduledExecutorService scheduler) {
        return new ExitReportSender(AgentHubGrpc.newBlockingStub(channel), settings.nodeName(), scheduler, BACKOFF, CALL_DEADLINE, table);
    }

    /**
     * How jobs are held together: GANTRY_AGENT_CONTAINMENT=auto (cgroups when writable, else process groups), cgroup,
     * process_group; GANTRY_AGENT_CGROUP_FAVORDYNMODS=yes|no whether to set cgroup2's favordynmods (FavorDynmods).
     */
    @Singleton
    Containment containment(AgentSettings settings, @Value("${gantry.agent.containment:auto}") String wanted,
            @Value("${gantry.agent.cgroup-favordynmods:yes}") String favorDynmods) {
        return ContainmentChoice.choose(wanted, favorDynmods, settings.nodeName(), settings.spoolDir());
    }

    @Singleton
    AgentMetrics metrics(MeterRegistry registry) {
        return new AgentMetrics(registry);
    }

    @Singleton
    @Bean(preDestroy = "close")
    JobSupervisor supervisor(AgentSettings settings, ExitReportSender exits, AgentMetrics metrics, Containment containment,
            JobTableStore table, @Named(JOBS) ScheduledExecutorService scheduler,
            @Value("${gantry.agent.prolog:}") String prolog, @Value("${gantry.agent.epilog:}") String epilog) {
        BatchLauncher launcher = new BatchLauncher(settings.spoolDir(), settings.nodeName(), BatchLauncher.defaultTools(),
                SiteScripts.of(prolog, epilog, PROLOG_EPILOG_TIMEOUT));
        LOG.info("batch scripts start through {}", launcher.spawnMechanism());
        InstantSource clock = InstantSource.system();
        LaunchGuardJournal journal = new LaunchGuardJournal(settings.spoolDir().resolve("state"));
        LaunchGuard guard = new LaunchGuard(clock, LAUNCH_MEMORY, journal);
        guard.restore(journal.load()); // a credential the previous agent ran stays used
        JobSupervisor supervisor = new JobSupervisor(
                settings.nodeName(),
                new CredentialVerifier(settings.credentialKey(), clock),
                guard,
                launcher,
                containment,
                table,
                scheduler,
                clock,
                exits,
                metrics,
                JobSupervisor.Timing.DEFAULT);
        metrics.watch(supervisor);
        List<Long> adopted = supervisor.adoptFromTable();
        if (!adopted.isEmpty()) {
            LOG.info("re-adopted {} job(s) left running by the previous agent: {}", adopted.size(), adopted);
        }
        return supervisor;
    }

    /**
     * Forwards multi-node launches to peer agents (TreeWidth fan-out), one mutual-TLS channel per peer, which accepts
     * only the agent of the node the launch names.
     */
    @Singleton
    @Bean(preDestroy = "close")
    LaunchForwarder launchForwarder(AgentMetrics metrics, InternalChannels channels) {
        return new LaunchForwarder((node, address) -> channels.open(address, new Peer.Node(node)), metrics);
    }

    /**
     * The local authenticator (AuthType=auth/local): on GANTRY_AUTH_SOCKET, tokens signed with GANTRY_AUTH_PRIVATE_KEY
     * for the users the kernel names. Only where both are set (one agent per host serves it).
     */
    @Context
    @Bean(preDestroy = "close")
    @io.micronaut.context.annotation.Requires(property = "gantry.agent.auth-socket", pattern = ".+")
    LocalAuthenticator localAuthenticator(AgentSettings settings, AgentMetrics metrics,
            @Value("${gantry.agent.auth-socket}") String socket, @Value("${gantry.agent.auth-private-key:}") String keyFile) {
        if (keyFile.isBlank()) {
            throw new AgentConfigurationException("GANTRY_AUTH_SOCKET is set but GANTRY_AUTH_PRIVATE_KEY is not: the local "
                    + "authenticator signs tokens with the cluster's authentication key");
        }
        try {
            Ed25519.SigningKey key = Ed25519.SigningKey.of(CredentialKeys.readPrivate(Path.of(keyFile)));
            LocalAuthenticator authenticator = LocalAuthenticator.start(Path.of(socket), settings.nodeName(), key, InstantSource.system());
            metrics.watch(authenticator);
            return authenticator;
        } catch (IOException | RuntimeException e) {
            throw new AgentConfigurationException("local authenticator on GANTRY_AUTH_SOCKET=" + socket + ": " + e.getMessage(), e);
        }
    }

    /**
     * srun's calls to StepAgent carry their user's credential, checked as the controller checks its callers: local tokens
     * (GANTRY_AUTH_PUBLIC_KEY), MUNGE (GANTRY_AUTH_MUNGE_SOCKET, or "default" for munged's own socket) and Slurm's JSON
     * web tokens (GANTRY_AUTH_JWT_KEY), as configured. The agent reads no cluster config, hence the variables.
     */
    @Singleton
    io.grpc.ServerInterceptor stepCallers(@Value("${gantry.agent.auth-public-key:}") String localKey,
            @Value("${gantry.agent.auth-munge-socket:}") String mungeSocket, @Value("${gantry.agent.auth-jwt-key:}") String jwtKey) {
        try {
            java.util.Optional<byte[]> hs256 = jwtKey.isBlank() ? java.util.Optional.empty()
                    : java.util.Optional.of(Files.readAllBytes(Path.of(jwtKey)));
            java.util.Map<String, Ed25519.VerifyingKey> local = localKey.isBlank() ? java.util.Map.of()
                    : java.util.Map.of(dev.gantry.common.auth.Tokens.LOCAL_KEY_ID,
                            Ed25519.VerifyingKey.of(CredentialKeys.readPublic(Path.of(localKey))));
            var settings = new dev.gantry.common.authn.CallerAuthenticator.Settings(!local.isEmpty(), !mungeSocket.isBlank(),
                    mungeSocket.isBlank() || mungeSocket.equals("default") ? java.util.Optional.empty() : java.util.Optional.of(mungeSocket),
                    hs256.isPresent(), new dev.gantry.common.auth.Jwt.Keys(hs256, local));
            return new dev.gantry.common.authn.Callers(new dev.gantry.common.authn.CallerAuthenticator(settings, InstantSource.system()),
                    java.util.Set.of("gantry.v1.StepAgent"));
        } catch (IOException | RuntimeException e) {
            throw new AgentConfigurationException("authenticating srun's callers: " + e.getMessage(), e);
        }
    }

    /** StepAgent: srun's job steps, run in their jobs' containers. */
    @Singleton
    StepAgentGrpcService stepAgent(AgentSettings settings, JobSupervisor supervisor, AgentMetrics metrics) {
        return new StepAgentGrpcService(settings.nodeName(), new CredentialVerifier(settings.credentialKey(), InstantSource.system()),
                supervisor, new StepRunner(BatchLauncher.defaultTools()), metrics::stepTasksStarted);
    }

    /**
     * The internal server (GANTRY_INTERNAL_PORT, default 6830; mutual TLS): NodeAgent, not a bean, so the public port
     * does not serve it. StepAgent stays on the public port: srun calls it as a user process, with a step credential.
     */
    @Context
    @Bean(preDestroy = "close")
    InternalServer internalServer(AgentSettings settings, JobSupervisor supervisor, LaunchForwarder forwarder, ServiceTls tls,
            Fencing.Guard fencing,
            @Value("${gantry.internal.host:127.0.0.1}") String host, @Value("${gantry.internal.port:6830}") int port) {
        try {
            return serveInternal(InternalServer.on(host, port, tls).withHealth(),
                    new NodeAgentGrpcService(supervisor, settings.nodeName(), forwarder), fencing).start();
        } catch (IOException e) {
            throw new AgentConfigurationException("GANTRY_INTERNAL_PORT=" + port + ": cannot listen on " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Who may call what on the internal port: NodeAgent scheduler-svc, and LaunchJob also a peer agent (launch
     * forwarding; the launch still needs the controller's signed credential naming this node).
     */
    static InternalServer.Builder serveInternal(InternalServer.Builder server, NodeAgentGrpcService nodeAgent) {
        return serveInternal(server, nodeAgent, new Fencing.Guard(() -> { }));
    }

    /** As above, each call checked against the highest controller fencing number seen ({@link Fencing.Guard}). */
    static InternalServer.Builder serveInternal(InternalServer.Builder server, NodeAgentGrpcService nodeAgent, Fencing.Guard fencing) {
        return server
                .serve(io.grpc.ServerInterceptors.intercept(nodeAgent, fencing), PeerAdmission.only(Peer.SCHEDULER))
                .method(NodeAgentGrpc.getLaunchJobMethod(), PeerAdmission.only(Peer.SCHEDULER).or(PeerAdmission.ANY_NODE));
    }

    /**
     * The highest controller fencing number this agent has seen (from the controller's answers and calls): calls of a
     * controller with a lower one, deposed by a standby, are refused (docs/ARCHITECTURE.md, "Standby controller").
     */
    @Singleton
    Fencing.Guard fencing(MeterRegistry registry) {
        io.micrometer.core.instrument.Counter refused = io.micrometer.core.instrument.Counter.builder("gantry_agent_fenced_calls_total")
                .description("Calls refused because they carried a lower controller fencing number than one seen before (a deposed controller)")
                .register(registry);
        return new Fencing.Guard(refused::increment);
    }

    @Singleton
    @Bean(preDestroy = "close")
    HubSession hubSession(AgentSettings settings, Hardware hardware, JobSupervisor supervisor, Fencing.Guard fencing,
            ExitReportSender exits, @Named(HUB) ManagedChannel channel, @Named(HUB) ScheduledExecutorService scheduler) {
        NodeIdentity node = new NodeIdentity(settings.nodeName(), settings.advertiseAddress(), settings.stepAddress(), hardware,
                Instant.now(), version());
        HubSession session = new HubSession(AgentHubGrpc.newBlockingStub(channel), node,
                supervisor::runningJobs, supervisor::usage, scheduler, new HubLink(BACKOFF, Duration.ofSeconds(30)), CALL_DEADLINE);
        session.onRegistered(exits::controllerReachable); // a controller back: the exits it is owed go at once
        // a controller gone or back (a restart, a takeover): heartbeat or register now, not at the next interval
        ControllerConnectionWatch.watch(channel instanceof dev.gantry.common.failover.FollowingChannel f
                ? f.targets().stream().map(f::channelTo).toList() : List.of(channel), session::nudge);
        return session;
    }

    /** gRPC server reflection (grpcurl, grpc_cli); Micronaut registers the health service itself. */
    @Singleton
    BindableService reflection() {
        return ProtoReflectionServiceV1.newInstance();
    }

    /** The older v1alpha reflection, which older grpcurl and many tools still ask for. */
    @Singleton
    @Named("reflection-v1alpha")
    @SuppressWarnings("deprecation")
    BindableService reflectionV1alpha() {
        return io.grpc.protobuf.services.ProtoReflectionService.newInstance();
    }

    private static String version() {
        String v = AgentFactory.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
