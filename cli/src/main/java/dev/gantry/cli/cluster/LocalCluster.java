package dev.gantry.cli.cluster;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.cli.controller.CallerCredential;
import dev.gantry.cli.controller.ControllerChannels;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.files.LocalUser;
import dev.gantry.common.files.PrivateFiles;
import dev.gantry.common.files.TreeRemoval;
import dev.gantry.common.files.TrustedPath;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.ClusterCa;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The local cluster: every service as its own process on loopback, one node-agent per configured node,
 * embedded PostgreSQL, and logs and state in one run directory.
 */
final class LocalCluster {

    /** Where the built jars are: the repository root (bin/gantry passes it). */
    private final Path home;
    private final Path runDir;
    private final PrintStream out;
    private final PrintStream err;

    LocalCluster(Path home, Path runDir, PrintStream out, PrintStream err) {
        this.home = home;
        this.runDir = runDir.toAbsolutePath().normalize();
        this.out = out;
        this.err = err;
    }

    private Path jar(String module, String artifact) {
        return home.resolve(module).resolve("target").resolve(artifact + ".jar");
    }

    /** Starts the cluster; returns the exit status. */
    int up(ClusterConfig config, Duration timeout) throws IOException, InterruptedException {
        return up(config, timeout, false);
    }

    /**
     * Starts the cluster; returns the exit status.
     *
     * @param publicTls the controller's public port serves TLS (with scheduler-svc's certificate from the cluster CA,
     *     which {@code controller-ca.crt} beside {@code controller.addr} lets the commands verify)
     */
    int up(ClusterConfig config, Duration timeout, boolean publicTls) throws IOException, InterruptedException {
        var existing = StartedCluster.load(runDir);
        if (existing.isPresent() && (existing.get().services().stream().anyMatch(s -> alive(s.pid()))
                || SupervisorLink.running(runDir).isPresent())) {
            err.println("gantry: a cluster is already running from " + runDir + " (run: bin/gantry down)");
            return 1;
        }
        for (String[] m : List.of(new String[] {"scheduler-svc", "gantry-scheduler-svc"}, new String[] {"select-svc", "gantry-select-svc"},
                new String[] {"gang-svc", "gantry-gang-svc"}, new String[] {"node-agent", "gantry-node-agent"})) {
            if (!Files.isRegularFile(jar(m[0], m[1]))) {
                err.println("gantry: " + jar(m[0], m[1]) + " is missing: build first (./mvnw -q -DskipTests package)");
                return 1;
            }
        }
        Path logs = runDir.resolve("logs");
        Files.createDirectories(logs);
        Path state;
        try {
            // the keys, the database password and the database itself: this user's only (docs/security.md, "Local state")
            state = PrivateFiles.ownerOnlyDirectory(runDir.resolve("state"));
            PrivateFiles.ownerOnlyDirectory(state.resolve("cred"));
            prepareSpool(agentSpool(runDir));
        } catch (IOException e) {
            err.println("gantry: cannot start: " + e.getMessage());
            return 1;
        }
        // job processes an earlier cluster of this run directory left (one that was not brought down): never two of a run
        // (its nodes: this config's, and those cluster.properties still names, should the config have changed since)
        java.util.Set<String> nodes = new java.util.LinkedHashSet<>(config.nodes().stream().map(NodeConfig::name).toList());
        existing.ifPresent(cs -> cs.services().stream().filter(sv -> sv.name().startsWith("agent-"))
                .forEach(sv -> nodes.add(sv.name().substring("agent-".length()))));
        sweepLeftoverJobs(List.copyOf(nodes), "of an earlier cluster of " + runDir);
        Path configCopy = runDir.resolve("gantry.conf");
        Files.copy(config.source(), configCopy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // topology/tree: the topology file goes where the copy will look for it (a relative TopologyFile or topology.conf)
        if (config.topologyFile().isPresent()) {
            Path dir = config.source().toAbsolutePath().getParent().normalize();
            Path topology = config.topologyFile().get().normalize();
            if (topology.startsWith(dir)) {
                Path target = runDir.resolve(dir.relativize(topology));
                Files.createDirectories(target.getParent());
                Files.copy(topology, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }

        copyJwtKey(config);
        Ports ports = new Ports();
        int schedPort;
        int selectPort;
        int gangPort;
        Map<String, Integer> agentPorts = new LinkedHashMap<>();
        // the internal APIs (mutual TLS) listen apart from the public ports, on ports picked here
        Map<String, Integer> internalPorts = new LinkedHashMap<>();
        try {
            schedPort = ports.require(config.get(Keys.SLURMCTLD_PORT), "SlurmctldPort");
            selectPort = ports.require(config.get(Keys.SELECT_PORT), "SelectPort");
            gangPort = ports.require(config.get(Keys.GANG_PORT), "GangPort");
            for (NodeConfig n : config.nodes()) {
                agentPorts.put(n.name(), ports.require(n.port(), "Port of NodeName=" + n.name()));
            }
            for (String name : List.of("scheduler", "select", "gang")) {
                internalPorts.put(name, ports.pick());
            }
            if (standby(config)) { // a second SlurmctldHost: a standby controller, its own public and internal ports
                internalPorts.put("scheduler-backup", ports.pick());
                internalPorts.put("scheduler-backup-public", ports.pick());
            }
            for (NodeConfig n : config.nodes()) {
                internalPorts.put("agent-" + n.name(), ports.pick());
            }
        } catch (IOException e) {
            err.println("gantry: cannot start: " + e.getMessage());
            return 1;
        }
        String controller = "127.0.0.1:" + schedPort;
        // Service identity: the cluster CA (created once, in state/tls: 0700, keys 0600) issues every service and
        // agent a fresh certificate at each start
        CertificateDirectory tls;
        try {
            tls = issueCertificates(config, state.resolve("tls"));
        } catch (IOException | RuntimeException e) {
            err.println("gantry: cannot start: cannot create the cluster's certificates in " + state.resolve("tls") + ": " + e.getMessage());
            return 1;
        }
        Path privateKey = state.resolve("cred/cred.key");
        Path publicKey = state.resolve("cred/cred.pub");
        dev.gantry.common.credential.CredentialKeys.createIfMissing(privateKey, publicKey);
        PrivateFiles.restrict(privateKey); // an older version wrote the public key 0644
        PrivateFiles.restrict(publicKey);
        // the local authenticator's key (AuthType=auth/local): one agent signs users' tokens with it, the rest verify
        Path authKey = state.resolve("auth/auth.key");
        Path authPublicKey = state.resolve("auth/auth.pub");
        dev.gantry.common.credential.CredentialKeys.createIfMissing(authKey, authPublicKey);
        PrivateFiles.restrict(authKey);

        List<StartedCluster.Service> started = new ArrayList<>();
        // the services reach scheduler-svc (event stream, GangControl, AgentHub) on its internal port
        // (both controllers' when there is a standby: the services follow the active one)
        Map<String, String> common = Map.of("GANTRY_BIND_HOST", "127.0.0.1", "GANTRY_SCHEDULER_ADDRESS",
                "127.0.0.1:" + internalPorts.get("scheduler") + (standby(config) ? ",127.0.0.1:" + internalPorts.get("scheduler-backup") : ""),
                "GANTRY_TLS_CA", tls.caCertificate().toString());
        String standbyController = standby(config) ? "127.0.0.1:" + internalPorts.get("scheduler-backup-public") : null;
        StartedCluster.Service backup = null;
        try {
            Map<String, String> env = new LinkedHashMap<>(common);
            env.put("GANTRY_CONFIG", configCopy.toString());
            env.put("GANTRY_STATE_DIR", state.toString());
            env.put("GANTRY_SELECT_ADDRESS", "127.0.0.1:" + internalPorts.get("select"));
            env.put("GANTRY_CRED_PRIVATE_KEY", privateKey.toString());
            env.put("GANTRY_CRED_PUBLIC_KEY", publicKey.toString());
            env.put("GANTRY_AUTH_PUBLIC_KEY", authPublicKey.toString());
            identity(env, tls, Peer.SCHEDULER, internalPorts.get("scheduler"));
            if (publicTls) { // the client API over TLS too: scheduler-svc's certificate names 127.0.0.1 and localhost
                env.put("GANTRY_PUBLIC_TLS_CERT", tls.certificate(Peer.SCHEDULER).toString());
                env.put("GANTRY_PUBLIC_TLS_KEY", tls.key(Peer.SCHEDULER).toString());
            }
            if (standby(config)) {
                // two controllers share the embedded PostgreSQL, run as a process of its own so that neither
                // controller's death takes it away (docs/ARCHITECTURE.md, "Standby controller")
                Map<String, String> db = new LinkedHashMap<>(Map.of("GANTRY_BIND_HOST", "127.0.0.1", "GANTRY_STATE_DIR", state.toString(),
                        "GANTRY_DATABASE_SERVER", "true"));
                started.add(start("database", jar("scheduler-svc", "gantry-scheduler-svc"), ports.pick(), ports.pick(), db, logs,
                        List.of("-Xmx64m", "-XX:TieredStopAtLevel=1")));
                env.put("GANTRY_DATABASE_SHARED", "true");
                env.put("GANTRY_CONTROLLER_NAME", config.get(Keys.SLURMCTLD_HOST).get(0));
                env.put("GANTRY_CONTROLLER_ADVERTISE", controller);
                Map<String, String> second = new LinkedHashMap<>(env);
                identity(second, tls, Peer.SCHEDULER, internalPorts.get("scheduler-backup"));
                second.put("GANTRY_CONTROLLER_NAME", config.get(Keys.SLURMCTLD_HOST).get(1));
                second.put("GANTRY_CONTROLLER_ADVERTISE", standbyController);
                backup = start("scheduler-backup", jar("scheduler-svc", "gantry-scheduler-svc"),
                        internalPorts.get("scheduler-backup-public"), ports.pick(), second, logs, List.of("-Xmx1g", "-Djava.io.tmpdir=" + state));
            }
            started.add(start("scheduler", jar("scheduler-svc", "gantry-scheduler-svc"), schedPort, ports.pick(), env, logs,
                    List.of("-Xmx1g", "-Djava.io.tmpdir=" + state)));
            if (backup != null) { // supervised as the others; whichever controller takes the lease first is the active one
                started.add(backup);
            }
            started.add(start("select", jar("select-svc", "gantry-select-svc"), selectPort, ports.pick(),
                    identity(new LinkedHashMap<>(common), tls, Peer.SELECT, internalPorts.get("select")), logs, List.of("-Xmx1g")));
            // gang-svc takes PreemptMode and SchedulerTimeSlice from the event stream's snapshot, as everything else.
            // C1 only, as the agents below: a time slice is little work, and C2 cost gang-svc several times its work
            started.add(start("gang", jar("gang-svc", "gantry-gang-svc"), gangPort, ports.pick(),
                    identity(new LinkedHashMap<>(common), tls, Peer.GANG, internalPorts.get("gang")), logs,
                    List.of("-Xmx256m", "-XX:TieredStopAtLevel=1")));
            for (NodeConfig n : config.nodes()) {
                Map<String, String> a = new LinkedHashMap<>(common);
                identity(a, tls, new Peer.Node(n.name()), internalPorts.get("agent-" + n.name()));
                a.put("GANTRY_NODE_NAME", n.name());
                a.put("GANTRY_CRED_PUBLIC_KEY", publicKey.toString());
                a.put("GANTRY_AGENT_SPOOL_DIR", agentSpool(runDir).resolve(n.name()).toString());
                a.put("GANTRY_NODE_CPUS", Integer.toString(n.cpus()));
                a.put("GANTRY_NODE_SOCKETS", Integer.toString(n.sockets()));
                a.put("GANTRY_NODE_CORES_PER_SOCKET", Integer.toString(n.coresPerSocket()));
                a.put("GANTRY_NODE_THREADS_PER_CORE", Integer.toString(n.threadsPerCore()));
                a.put("GANTRY_NODE_MEMORY_MB", Long.toString(n.realMemoryMb()));
                a.put("GANTRY_AGENT_PROLOG", config.get(Keys.PROLOG));
                a.put("GANTRY_AGENT_EPILOG", config.get(Keys.EPILOG));
                a.put("GANTRY_AGENT_CONTAINMENT", containment(config.get(Keys.PROCTRACK_TYPE)));
                a.put("GANTRY_AUTH_PUBLIC_KEY", authPublicKey.toString());
                a.putAll(stepCallerAuthentication(config));
                // one local authenticator per host (the commands find it beside controller.addr); none where MUNGE vouches
                if (n == config.nodes().get(0) && config.get(Keys.AUTH_TYPE).equals("auth/local")) {
                    a.put("GANTRY_AUTH_SOCKET", authSocket(runDir).toString());
                    a.put("GANTRY_AUTH_PRIVATE_KEY", authKey.toString());
                }
                started.add(start("agent-" + n.name(), jar("node-agent", "gantry-node-agent"), agentPorts.get(n.name()),
                        // C1 only: an agent's work is system calls, and C2's compiling costs more CPU than it saves
                        // when four agents share a small host (docs/benchmarks.md, "Trivial jobs across 4 local agents")
                        ports.pick(), a, logs, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1")));
            }
            new StartedCluster(controller, started).save(runDir);
            // the supervisor starts every service as its child and restarts the ones that crash
            Instant deadline = Instant.now().plus(timeout);
            String supervisorProblem = startSupervisor(logs, deadline);
            if (supervisorProblem != null) {
                err.println("gantry: " + supervisorProblem);
                stopAll(Duration.ofSeconds(10));
                return 1;
            }
            started = new ArrayList<>(StartedCluster.load(runDir).orElseThrow().services());
            for (StartedCluster.Service s : started) {
                String problem = awaitHealthy(s, deadline);
                if (problem != null) {
                    err.println("gantry: " + s.name() + " did not start: " + problem);
                    err.println("gantry: last lines of " + s.log() + ":");
                    tail(s.log(), 15).forEach(l -> err.println("    " + l));
                    stopAll(Duration.ofSeconds(10));
                    return 1;
                }
            }
            String nodesProblem = awaitNodes(standbyController == null ? List.of(controller) : List.of(controller, standbyController), publicTls ? Optional.of(tls.caCertificate()) : Optional.empty(),
                    config.nodes().size(), deadline);
            if (nodesProblem != null) {
                err.println("gantry: " + nodesProblem);
                stopAll(Duration.ofSeconds(10));
                return 1;
            }
        } catch (IOException e) {
            err.println("gantry: cannot start: " + e.getMessage());
            stopAll(Duration.ofSeconds(10));
            return 1;
        }
        // with a standby, both lines: the commands follow the active one
        writeControllerAddress(standbyController == null ? controller : controller + "\n" + standbyController,
                publicTls ? Optional.of(tls.caCertificate()) : Optional.empty());
        printSummary(config, started, controller, publicTls);
        return 0;
    }

    /**
     * The CA in {@code dir} (created if missing) and a new certificate for every service and every node of the config,
     * valid for 127.0.0.1 and localhost too (for grpcurl and the like; Gantry's services check the peer's name instead).
     */
    static CertificateDirectory issueCertificates(ClusterConfig config, Path dir) throws IOException {
        Instant now = Instant.now();
        CertificateDirectory tls = CertificateDirectory.open(dir, config.get(Keys.CLUSTER_NAME), now);
        List<Peer> peers = new ArrayList<>(Peer.SERVICES);
        config.nodes().forEach(n -> peers.add(new Peer.Node(n.name())));
        for (Peer p : peers) {
            tls.issue(p, List.of(p.name(), "localhost", "127.0.0.1"), now, ClusterCa.DEFAULT_VALIDITY);
        }
        return tls;
    }

    /** A service's identity and internal port in its environment: GANTRY_TLS_CERT, GANTRY_TLS_KEY, GANTRY_INTERNAL_PORT. */
    private static Map<String, String> identity(Map<String, String> env, CertificateDirectory tls, Peer peer, int internalPort) {
        env.put("GANTRY_TLS_CERT", tls.certificate(peer).toString());
        env.put("GANTRY_TLS_KEY", tls.key(peer).toString());
        env.put("GANTRY_INTERNAL_PORT", Integer.toString(internalPort));
        return env;
    }

    /** A second SlurmctldHost= line: the local cluster runs a standby controller (and the database apart). */
    static boolean standby(ClusterConfig config) {
        return config.get(Keys.SLURMCTLD_HOST).size() > 1;
    }

    /** How to start one service (its pid is 0 until the supervisor starts it). */
    private StartedCluster.Service start(String name, Path jar, int grpcPort, int httpPort, Map<String, String> env, Path logs,
            List<String> jvmOptions) throws IOException {
        Path log = logs.resolve(name + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid"); // own session: a Ctrl-C in the terminal that ran `gantry up` does not reach it
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-XX:+UseSerialGC");
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow"); // protobuf-java 3.x; the option is unknown before JDK 24
        }
        cmd.addAll(ServiceArchives.flags(jar, runDir, name)); // read-only, or a file of its own to write at exit
        cmd.add("-Xlog:cds=off");
        cmd.add("-Xlog:cds+dynamic=off");
        cmd.addAll(jvmOptions);
        cmd.addAll(siteJvmOptions(name, System.getenv()));
        cmd.add("-jar");
        cmd.add(jar.toString());
        Map<String, String> all = new java.util.TreeMap<>(env);
        all.put("GANTRY_GRPC_PORT", Integer.toString(grpcPort));
        all.put("GANTRY_HTTP_PORT", Integer.toString(httpPort));
        return new StartedCluster.Service(name, 0, grpcPort, httpPort, log, cmd, all);
    }

    /**
     * The JVM options a site adds to one kind of service, after Gantry's own (so {@code -Xmx} there wins):
     * GANTRY_SCHEDULER_JAVA_OPTS (both controllers), GANTRY_SELECT_JAVA_OPTS, GANTRY_GANG_JAVA_OPTS,
     * GANTRY_AGENT_JAVA_OPTS (every node agent), GANTRY_DATABASE_JAVA_OPTS; whitespace-separated. A queue of a million
     * jobs needs the controller's heap raised from its default 1 GiB (docs/benchmarks.md, "Reading a large queue").
     */
    static List<String> siteJvmOptions(String service, Map<String, String> environment) {
        String kind = service.startsWith("agent-") ? "AGENT"
                : service.startsWith("scheduler") ? "SCHEDULER" : service.toUpperCase(java.util.Locale.ROOT);
        String options = environment.getOrDefault("GANTRY_" + kind + "_JAVA_OPTS", "").strip();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /** Starts {@code s}: output appended to its log, no stdin (nothing ties it to the process that starts it). */
    static Process launch(StartedCluster.Service s) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(s.command()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(s.log().toFile()));
        pb.environment().putAll(s.environment());
        return pb.start();
    }

    /**
     * Starts the supervisor and waits until it has started every service of cluster.properties; null when it has,
     * else why not.
     */
    private String startSupervisor(Path logs, Instant deadline) throws IOException, InterruptedException {
        Path log = logs.resolve("supervisor.log");
        Process supervisor = SupervisorLink.start(runDir, log);
        while (Instant.now().isBefore(deadline)) {
            var cs = StartedCluster.load(runDir);
            if (SupervisorLink.recordedPid(runDir).isPresent() && Files.exists(runDir.resolve(SupervisorState.FILE))
                    && cs.isPresent() && cs.get().services().stream().allMatch(s -> s.pid() > 0)) {
                return null;
            }
            if (!supervisor.isAlive()) {
                tail(log, 15).forEach(l -> err.println("    " + l));
                return "the supervisor exited (status " + supervisor.exitValue() + ") before it started the services; see " + log;
            }
            Thread.sleep(50);
        }
        return "the supervisor did not start the services in time; see " + log;
    }

    /**
     * Tells the supervisor to stop supervising (so nothing stopped next is restarted); one that does not answer within
     * 10 s is killed. Nothing to do when none runs.
     */
    private void stopSupervisor() throws IOException, InterruptedException {
        if (SupervisorLink.running(runDir).isEmpty()) {
            return;
        }
        Optional<String> answer = SupervisorLink.ask(runDir, "stop", Duration.ofSeconds(10));
        var left = SupervisorLink.running(runDir);
        if (answer.isEmpty() && left.isPresent()) {
            err.println("gantry: the supervisor (pid " + left.get().pid() + ") did not answer: killing it");
            left.get().destroyForcibly();
        }
        if (left.isPresent()) {
            try {
                left.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                err.println("gantry: warning: the supervisor (pid " + left.get().pid() + ") did not exit: " + e);
            }
        }
    }

    /** The supervisor first, then every service of cluster.properties (for a failed up). */
    private void stopAll(Duration timeout) throws IOException, InterruptedException {
        stopSupervisor();
        var cs = StartedCluster.load(runDir);
        if (cs.isPresent()) {
            stop(cs.get().services(), timeout);
        }
    }

    /** Kills the job processes left in this cluster's job cgroups (see {@link LeftoverJobProcesses}); says so when it finds any. */
    private void sweepLeftoverJobs(List<String> nodes, String whose) throws InterruptedException {
        var sweep = LeftoverJobProcesses.sweep(nodes, agentSpool(runDir), Duration.ofSeconds(10));
        if (!sweep.killed().isEmpty()) {
            out.println("gantry: killed " + sweep.killed().size() + " job process(es) left " + whose + " (pids "
                    + sweep.killed() + ")");
        }
        List<Long> alive = sweep.killed().stream().filter(LocalCluster::alive).toList();
        if (!alive.isEmpty()) {
            err.println("gantry: warning: job process(es) " + alive + " did not die");
        }
    }

    /** Stops one service and starts it again with the same ports and settings; returns the exit status. */
    int restart(String name, Duration timeout) throws IOException, InterruptedException {
        var loaded = StartedCluster.load(runDir);
        if (loaded.isEmpty()) {
            err.println("gantry: no cluster in " + runDir);
            return 1;
        }
        List<StartedCluster.Service> services = new ArrayList<>(loaded.get().services());
        int i = -1;
        for (int k = 0; k < services.size(); k++) {
            if (services.get(k).name().equals(name)) {
                i = k;
            }
        }
        if (i < 0) {
            err.println("gantry: no service named " + name + " (services: "
                    + String.join(", ", services.stream().map(StartedCluster.Service::name).toList()) + ")");
            return 1;
        }
        StartedCluster.Service old = services.get(i);
        StartedCluster.Service fresh;
        Optional<String> answer = SupervisorLink.ask(runDir, "restart " + name, Supervisor.STOP_LIMIT.plusSeconds(30));
        if (answer.isPresent()) { // the supervisor stops it and starts it again as its child: not counted as a crash
            if (!answer.get().startsWith("ok ")) {
                err.println("gantry: the supervisor could not restart " + name + ": " + answer.get());
                return 1;
            }
            fresh = old.withPid(Long.parseLong(answer.get().substring(3).trim()));
        } else {
            err.println("gantry: note: no supervisor runs (bin/gantry status): " + name + " is restarted by hand and not supervised");
            stop(List.of(old), Duration.ofSeconds(30));
            fresh = old.withPid(launch(old).pid());
            services.set(i, fresh);
            new StartedCluster(loaded.get().controller(), services).save(runDir);
        }
        String problem = awaitHealthy(fresh, Instant.now().plus(timeout));
        if (problem != null) {
            err.println("gantry: " + name + " did not come back: " + problem);
            return 1;
        }
        out.println("gantry: restarted " + name + " (pid " + fresh.pid() + ")");
        return 0;
    }

    /** Whether the service's gRPC health answers SERVING now (a standby controller answers NOT_SERVING). */
    private static boolean serving(StartedCluster.Service s) {
        ManagedChannel ch = channel(s.grpcAddress(), publicCa(s)).build();
        try {
            return HealthGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
                    .getStatus() == HealthCheckResponse.ServingStatus.SERVING;
        } catch (RuntimeException e) {
            return false;
        } finally {
            ch.shutdownNow();
        }
    }

    /** Null once the service answers SERVING, else why not. */
    private String awaitHealthy(StartedCluster.Service service, Instant deadline) throws InterruptedException {
        StartedCluster.Service s = service;
        boolean restartedOnce = false;
        ManagedChannel ch = channel(s.grpcAddress(), publicCa(s)).build();
        try {
            String last = "no answer";
            while (Instant.now().isBefore(deadline)) {
                if (!alive(s.pid())) {
                    // a JVM that died on its class archive: the supervisor discards the archive and starts it again
                    Optional<StartedCluster.Service> again = restartedOnce ? Optional.empty() : restartedAfterArchiveCrash(s, deadline);
                    if (again.isEmpty()) {
                        return "the process exited";
                    }
                    err.println("gantry: " + s.name() + " died of a JVM fatal error with its class archive; the archive was discarded"
                            + " and " + s.name() + " started again without it (pid " + again.get().pid() + ")");
                    restartedOnce = true;
                    s = again.get();
                    continue;
                }
                try {
                    HealthCheckResponse r = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS)
                            .check(HealthCheckRequest.getDefaultInstance());
                    if (r.getStatus() == HealthCheckResponse.ServingStatus.SERVING) {
                        return null;
                    }
                    if (s.environment().containsKey("GANTRY_DATABASE_SHARED")
                            && r.getStatus() == HealthCheckResponse.ServingStatus.NOT_SERVING) {
                        return null; // one of two controllers, as a standby: live, not serving until it takes over
                    }
                    last = "health is " + r.getStatus();
                } catch (RuntimeException e) {
                    last = e.getMessage();
                }
                Thread.sleep(200);
            }
            return "no healthy answer in time (" + last + ")";
        } finally {
            ch.shutdownNow();
        }
    }

    /**
     * What the agents accept from srun besides local tokens, as the cluster's config says (they read no config):
     * MUNGE under AuthType=auth/munge (AuthInfo's socket, else munged's default), the JWT key under AuthAltTypes=auth/jwt.
     */
    private Map<String, String> stepCallerAuthentication(ClusterConfig config) {
        Map<String, String> env = new LinkedHashMap<>();
        if (config.get(Keys.AUTH_TYPE).equals("auth/munge")) {
            env.put("GANTRY_AUTH_MUNGE_SOCKET", option(config.get(Keys.AUTH_INFO), "socket").orElse("default"));
        }
        if (config.get(Keys.AUTH_ALT_TYPES).contains("auth/jwt")) {
            option(config.get(Keys.AUTH_ALT_PARAMETERS), "jwt_key").ifPresent(k ->
                    env.put("GANTRY_AUTH_JWT_KEY", runDir.toAbsolutePath().resolve(k).toString()));
        }
        return env;
    }

    /**
     * A relative jwt_key goes where the config's copy in the run directory looks for it (owner-only, as the key is a
     * secret); an absolute one stays where it is.
     */
    private void copyJwtKey(ClusterConfig config) throws IOException {
        if (!config.get(Keys.AUTH_ALT_TYPES).contains("auth/jwt")) {
            return;
        }
        Optional<String> key = option(config.get(Keys.AUTH_ALT_PARAMETERS), "jwt_key");
        if (key.isEmpty() || Path.of(key.get()).isAbsolute()) {
            return;
        }
        Path source = config.source().toAbsolutePath().getParent().resolve(key.get());
        Path target = runDir.toAbsolutePath().resolve(key.get());
        Files.createDirectories(target.getParent());
        Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(target, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    private static Optional<String> option(List<String> options, String name) {
        return options.stream().filter(o -> o.startsWith(name + "=")).map(o -> o.substring(name.length() + 1)).findFirst();
    }

    /** The local authenticator's socket: beside controller.addr, where the commands look for it. */
    static Path authSocket(Path runDir) {
        return runDir.toAbsolutePath().normalize().resolve("auth.sock");
    }

    /**
     * A channel to the controller whose calls carry the launching user's credential (CallerCredential#forCluster), over
     * TLS trusting {@code ca} when the public port serves TLS.
     */
    private ManagedChannel controllerChannel(String controller, Optional<Path> ca) {
        return channel(controller, ca).intercept(CallerCredential.forCluster(runDir)).build();
    }

    /** Plaintext, or TLS trusting {@code ca}. */
    private static ManagedChannelBuilder<?> channel(String target, Optional<Path> ca) {
        if (ca.isEmpty()) {
            return ManagedChannelBuilder.forTarget(target).usePlaintext();
        }
        try {
            return io.grpc.Grpc.newChannelBuilder(target, io.grpc.TlsChannelCredentials.newBuilder().trustManager(ca.get().toFile()).build());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(ca.get() + ": " + e.getMessage(), e);
        }
    }

    /** The CA of a service's public TLS (the cluster CA, when scheduler-svc serves its client API over TLS). */
    private static Optional<Path> publicCa(StartedCluster.Service s) {
        return s.environment().containsKey("GANTRY_PUBLIC_TLS_CERT") ? Optional.of(Path.of(s.environment().get("GANTRY_TLS_CA")))
                : Optional.empty();
    }

    /** Waits until every node has registered with the active one of {@code controllers}; null when they have, else why not. */
    private String awaitNodes(List<String> controllers, Optional<Path> ca, int count, Instant deadline) throws InterruptedException {
        List<ManagedChannel> channels = controllers.stream().map(c -> controllerChannel(c, ca)).toList();
        try {
            List<String> waiting = List.of();
            while (Instant.now().isBefore(deadline)) {
                for (ManagedChannel ch : channels) { // with a standby: whichever controller took the lease answers
                    try {
                        List<Node> nodes = ControllerGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS)
                                .listNodes(ListNodesRequest.getDefaultInstance()).getNodesList();
                        waiting = nodes.stream().filter(n -> n.getState() == NodeState.NODE_STATE_UNKNOWN).map(Node::getName).toList();
                        if (waiting.isEmpty() && nodes.size() == count) {
                            return null;
                        }
                    } catch (RuntimeException e) {
                        // the controller is still starting its listeners, or is the standby
                    }
                }
                Thread.sleep(200);
            }
            return "node agents did not register in time: " + String.join(",", waiting);
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
        }
    }

    private static final Path SHM = Path.of("/dev/shm");

    /**
     * The agents' containment mode from slurm.conf's ProctrackType: proctrack/cgroup is {@code cgroup}, proctrack/pgid
     * {@code process_group}, unset {@code auto} (cgroups where writable, else process groups).
     */
    static String containment(String proctrackType) {
        return switch (proctrackType) {
            case "proctrack/cgroup" -> "cgroup";
            case "proctrack/pgid" -> "process_group";
            default -> "auto";
        };
    }

    /**
     * Where the agents keep their job tables and spooled scripts, one directory per node below it: in memory
     * (/dev/shm) where the host has it writable, else the run directory's spool/ (not below state/, which only the
     * cluster's user may enter: the jobs' users pass through the spool to their own job directories). Both only
     * matter while the jobs' processes live, which cannot outlive the host's boot, and on disk every job costs
     * several inode creations and deletions (expensive on a journal-less ext4, such as this project's build
     * machines: see docs/benchmarks.md, "Trivial jobs"). Named after the run directory, so two local clusters never
     * share it.
     */
    static Path agentSpool(Path runDir) {
        Path dir = runDir.toAbsolutePath().normalize();
        if (Files.isDirectory(SHM) && Files.isWritable(SHM)) {
            try {
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(dir.toString().getBytes(StandardCharsets.UTF_8));
                return SHM.resolve("gantry-spool-" + java.util.HexFormat.of().formatHex(digest, 0, 8));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e); // every JDK has SHA-256
            }
        }
        return dir.resolve("spool");
    }

    /**
     * Creates the spool root: this user's, 0711 as root (the jobs' users pass through to their own job directories,
     * 0700 each, and list nothing), else 0700. Its name in the world-writable /dev/shm is predictable, so one that
     * exists already must be this user's (a directory another user planted would receive every job's script).
     */
    static void prepareSpool(Path spool) throws IOException {
        PrivateFiles.directory(spool, LocalUser.isRoot() ? PrivateFiles.TRAVERSABLE_DIR : PrivateFiles.OWNER_ONLY_DIR);
        var untrusted = TrustedPath.checkAllowingSticky(spool);
        if (untrusted.isPresent()) {
            throw new IOException("will not keep job scripts in " + spool + ": " + untrusted.get());
        }
    }

    /** Stops the cluster; returns the exit status. */
    int down(Duration timeout) throws IOException, InterruptedException {
        var loaded = StartedCluster.load(runDir);
        if (loaded.isEmpty()) {
            err.println("gantry: no cluster in " + runDir);
            return 1;
        }
        stopSupervisor(); // nothing stopped below is taken for a crash
        StartedCluster cs = StartedCluster.load(runDir).orElse(loaded.get()); // the pids it wrote last
        // with a standby, whichever controller is active now (the first may have failed over)
        StartedCluster.Service active = cs.services().stream().filter(s -> s.name().startsWith("scheduler"))
                .filter(s -> alive(s.pid()) && serving(s)).findFirst().orElse(null);
        cancelJobs(active == null ? cs.controller() : active.grpcAddress(), cs.services().stream()
                .filter(s -> s.name().equals("scheduler")).findFirst().flatMap(LocalCluster::publicCa));
        stop(cs.services(), timeout);
        // what survived the cancel (a job that forked into a session of its own, an agent that died before it could kill)
        sweepLeftoverJobs(cs.services().stream().filter(s -> s.name().startsWith("agent-")).map(s -> s.name().substring(6)).toList(),
                "after its agents stopped");
        if (agentSpool(runDir).startsWith(SHM)) {
            try {
                // its jobs are gone; it lives in memory. Job directories belong to the jobs' users: never follow their links
                TreeRemoval.delete(agentSpool(runDir));
            } catch (IOException e) {
                err.println("gantry: warning: cannot remove the agents' spool " + agentSpool(runDir) + ": " + e.getMessage());
            }
        }
        Files.deleteIfExists(runDir.resolve(StartedCluster.FILE));
        Files.deleteIfExists(runDir.resolve("controller.addr"));
        Files.deleteIfExists(runDir.resolve(ControllerChannels.CA_FILE));
        Files.deleteIfExists(runDir.resolve(SupervisorState.FILE));
        Files.deleteIfExists(SupervisorLink.pidFile(runDir));
        try {
            TreeRemoval.delete(runDir.resolve("supervisor"));
        } catch (IOException e) {
            err.println("gantry: warning: cannot remove " + runDir.resolve("supervisor") + ": " + e.getMessage());
        }
        out.println("gantry: stopped " + cs.services().size() + " processes; state and logs are kept in " + runDir);
        return 0;
    }

    /** Cancels every unfinished job so no job process outlives the cluster; waits briefly for them. */
    private void cancelJobs(String controller, Optional<Path> ca) throws InterruptedException {
        ManagedChannel ch = controllerChannel(controller, ca);
        try {
            // a long queue is many pages (and its cancel many durable writes): a generous deadline
            var stub = ControllerGrpc.newBlockingStub(ch);
            var active = dev.gantry.cli.api.JobPages.all(stub.withDeadlineAfter(60, TimeUnit.SECONDS), ListJobsRequest.newBuilder()
                    .addStates(JobState.JOB_STATE_PENDING).addStates(JobState.JOB_STATE_RUNNING)
                    .addStates(JobState.JOB_STATE_SUSPENDED).setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY).build());
            if (active.isEmpty()) {
                return;
            }
            // as the user who runs the cluster (scancel's rule: a user cancels their own jobs; the jobs of a local
            // cluster are that user's, and root's cancel is an administrator's)
            // the jobs with processes first, so they are on their way out whatever happens to the rest
            List<Long> ids = active.stream().sorted(java.util.Comparator.comparing(j -> j.getState() == JobState.JOB_STATE_PENDING))
                    .map(j -> j.getJobId()).toList();
            for (int from = 0; from < ids.size(); from += 1000) {
                stub.withDeadlineAfter(60, TimeUnit.SECONDS).cancelJob(CancelJobRequest.newBuilder()
                        .addAllJobIds(ids.subList(from, Math.min(ids.size(), from + 1000))).build());
            }
            out.println("gantry: cancelled " + active.size() + " unfinished job(s)");
            Instant until = Instant.now().plusSeconds(40);
            while (Instant.now().isBefore(until)) {
                boolean completing = dev.gantry.cli.api.JobPages.all(stub.withDeadlineAfter(60, TimeUnit.SECONDS),
                        ListJobsRequest.newBuilder().setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY).build())
                        .stream().anyMatch(j -> j.getCompleting());
                if (!completing) {
                    return;
                }
                Thread.sleep(200);
            }
        } catch (RuntimeException e) {
            err.println("gantry: could not cancel jobs (" + e.getMessage() + "); stopping anyway");
        } finally {
            ch.shutdownNow();
        }
    }

    private void stop(List<StartedCluster.Service> services, Duration timeout) throws InterruptedException {
        List<StartedCluster.Service> database = services.stream().filter(s -> s.name().equals("database")).toList();
        if (!database.isEmpty()) { // the controllers' last writes first, then the shared database
            stopInOrder(services.stream().filter(s -> !s.name().equals("database")).toList(), timeout);
            stopInOrder(database, timeout);
        } else {
            stopInOrder(services, timeout);
        }
        ServiceArchives.promote(services); // the class archives they wrote at exit, for the next start
    }

    private void stopInOrder(List<StartedCluster.Service> services, Duration timeout) throws InterruptedException {
        // Agents first (they stop taking launches), the controller last (it owns the state).
        List<StartedCluster.Service> order = new ArrayList<>(services);
        java.util.Collections.reverse(order);
        for (StartedCluster.Service s : order) {
            ProcessHandle.of(s.pid()).ifPresent(ProcessHandle::destroy);
        }
        Instant deadline = Instant.now().plus(timeout);
        for (StartedCluster.Service s : order) {
            var h = ProcessHandle.of(s.pid());
            while (h.isPresent() && h.get().isAlive() && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            h.filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Prints what runs, with what the supervisor knows of each service (restarts, last exit, a restart waiting), and
     * whether the supervisor itself runs; returns 0 when everything answers and the supervisor runs, 1 when something
     * does not, 3 when there is no cluster.
     */
    int status() throws IOException, InterruptedException {
        var loaded = StartedCluster.load(runDir);
        if (loaded.isEmpty()) {
            out.println("gantry: no cluster running from " + runDir);
            return 3;
        }
        Optional<SupervisorState> supervision = SupervisorState.load(runDir);
        Instant now = Instant.now();
        int bad = 0;
        out.printf("%-14s %8s %-12s %-22s %-40s %s%n", "SERVICE", "PID", "STATE", "GRPC", "METRICS", "SUPERVISION");
        for (StartedCluster.Service s : loaded.get().services()) {
            var watch = supervision.flatMap(st -> st.of(s.name()));
            String st;
            if (!alive(s.pid())) {
                st = watch.map(w -> w.state() == dev.gantry.cli.supervision.ServiceWatch.State.RUNNING ? "exited" : w.state().word())
                        .orElse("exited");
                bad++;
            } else if (s.name().startsWith("scheduler") && loaded.get().services().stream().anyMatch(o -> o.name().equals("scheduler-backup"))) {
                st = serving(s) ? "serving (active)" : "standby"; // two controllers: one holds the lease
            } else {
                String problem = awaitHealthy(s, Instant.now().plusSeconds(3));
                st = problem == null ? "serving" : "not serving";
                if (problem != null) {
                    bad++;
                }
            }
            out.printf("%-14s %8d %-12s %-22s %-40s %s%n", s.name(), s.pid(), st, s.grpcAddress(),
                    "http://127.0.0.1:" + s.httpPort() + "/prometheus", watch.map(w -> w.describe(now)).orElse("-"));
        }
        out.println("controller: " + loaded.get().controller() + "   run dir: " + runDir);
        var supervisor = SupervisorLink.running(runDir);
        if (supervisor.isPresent()) {
            out.println("supervisor: running, pid " + supervisor.get().pid() + " (restarts crashed services; log: "
                    + runDir.resolve("logs/supervisor.log") + ")");
        } else {
            bad++;
            out.println("supervisor: GONE" + SupervisorLink.recordedPid(runDir).map(p -> " (pid " + p + " is not running)").orElse("")
                    + ": crashed services are not restarted; the services still run and bin/gantry down still works"
                    + " (log: " + runDir.resolve("logs/supervisor.log") + ")");
        }
        return bad == 0 ? 0 : 1;
    }

    /** controller.addr, and beside it the CA of the public port's TLS ({@code ca}, if any), where the commands look. */
    private void writeControllerAddress(String controller, Optional<Path> ca) throws IOException {
        Files.writeString(runDir.resolve("controller.addr"), controller + "\n", StandardCharsets.UTF_8);
        writeControllerCa(runDir, ca);
        String xdg = System.getenv("XDG_STATE_HOME");
        Path stateHome = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        Path f = stateHome.resolve("gantry").resolve("controller.addr");
        try {
            Files.createDirectories(f.getParent());
            Files.writeString(f, controller + "\n", StandardCharsets.UTF_8);
            writeControllerCa(f.getParent(), ca);
        } catch (IOException e) {
            err.println("gantry: note: could not write " + f + ": " + e.getMessage());
        }
    }

    private static void writeControllerCa(Path dir, Optional<Path> ca) throws IOException {
        Path file = dir.resolve(ControllerChannels.CA_FILE);
        if (ca.isPresent()) {
            Files.copy(ca.get(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.deleteIfExists(file);
        }
    }

    private void printSummary(ClusterConfig config, List<StartedCluster.Service> started, String controller, boolean publicTls) {
        out.println("Gantry local cluster '" + config.get(Keys.CLUSTER_NAME) + "' is up: " + config.nodes().size()
                + " node(s), " + config.partitions().size() + " partition(s).");
        out.println();
        out.printf("  %-14s %8s  %-21s %-21s %s%n", "SERVICE", "PID", "GRPC", "INTERNAL (mTLS)", "METRICS");
        for (StartedCluster.Service s : started) {
            out.printf("  %-14s %8d  %-21s %-21s http://127.0.0.1:%d/prometheus%n", s.name(), s.pid(), s.grpcAddress(),
                    "127.0.0.1:" + s.environment().getOrDefault("GANTRY_INTERNAL_PORT", "-"), s.httpPort());
        }
        out.println();
        out.println("  run dir:     " + runDir + "  (logs/, state/, gantry.conf; the cluster CA and certificates in state/tls/)");
        out.println("  controller:  " + controller + "  (the commands find it; elsewhere: export GANTRY_CONTROLLER=" + controller + ")");
        if (publicTls) {
            out.println("  client API:  TLS, verified with " + runDir.resolve(ControllerChannels.CA_FILE)
                    + "  (elsewhere: export GANTRY_CONTROLLER_CA=<that file>)");
        }
        out.println();
        out.println("Submit a job:   bin/sbatch --wrap 'hostname; echo $SLURM_JOB_NODELIST'");
        out.println("Watch it:       bin/squeue   bin/sinfo   bin/scontrol show job <id>");
        out.println("Stop:           bin/gantry down");
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * When {@code s} died of a JVM fatal error while started from a class archive: the same service started again by the
     * supervisor (which discarded the archive), once it has a new pid; empty otherwise.
     */
    private Optional<StartedCluster.Service> restartedAfterArchiveCrash(StartedCluster.Service s, Instant deadline)
            throws InterruptedException {
        if (s.command().stream().noneMatch(a -> a.startsWith("-XX:SharedArchiveFile="))
                || tail(s.log(), 60).stream().noneMatch(l -> l.contains(ServiceArchives.FATAL_ERROR))) {
            return Optional.empty();
        }
        Instant until = Instant.now().plusSeconds(10).isBefore(deadline) ? Instant.now().plusSeconds(10) : deadline;
        while (Instant.now().isBefore(until)) {
            try {
                Optional<StartedCluster.Service> now = StartedCluster.load(runDir).flatMap(c -> c.services().stream()
                        .filter(x -> x.name().equals(s.name())).findFirst()).filter(x -> x.pid() != s.pid() && alive(x.pid()));
                if (now.isPresent()) {
                    return now;
                }
            } catch (IOException e) {
                // written as we read: the next round reads it again
            }
            Thread.sleep(200);
        }
        return Optional.empty();
    }

    static List<String> tail(Path file, int n) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - n), lines.size());
        } catch (IOException e) {
            return List.of("(cannot read: " + e.getMessage() + ")");
        }
    }
}
