package dev.gantry.scheduler.bench;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.ClusterCa;
import dev.gantry.common.tls.Peer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real scheduler-svc started from its built jar as {@code bin/gantry up} starts it (same environment variables,
 * serial GC, -Xmx1g, java.io.tmpdir in the state directory), with its embedded PostgreSQL under
 * {@code runDir/state}. No select-svc, gang-svc or agents run: the benchmark's partition is State=DOWN, so every
 * job is accepted and stays PENDING (Slurm: a DOWN partition queues jobs but starts none).
 */
final class SchedulerProcess implements AutoCloseable {

    final Path runDir;
    final Path stateDir;
    final int grpcPort;
    private final Process process;

    private SchedulerProcess(Path runDir, Path stateDir, int grpcPort, Process process) {
        this.runDir = runDir;
        this.stateDir = stateDir;
        this.grpcPort = grpcPort;
        this.process = process;
    }

    static Path authKey(Path runDir) {
        return runDir.resolve("state/auth/auth.key");
    }

    static Path authPublicKey(Path runDir) {
        return runDir.resolve("state/auth/auth.pub");
    }

    /**
     * A local token for {@code user} (uid, gid), as a node's local authenticator would issue it to that user's process:
     * what the benchmark's clients authenticate with.
     */
    static String token(Path runDir, String user, long uid, long gid) {
        var key = dev.gantry.common.credential.Ed25519.SigningKey.of(dev.gantry.common.credential.CredentialKeys.readPrivate(authKey(runDir)));
        var who = new dev.gantry.common.auth.Identity(user, uid, gid, List.of(gid), "local");
        return dev.gantry.common.auth.Jwt.signEd25519(dev.gantry.common.auth.Tokens.localClaims(who, "login1", java.time.Instant.now(),
                "bench-" + uid), dev.gantry.common.auth.Tokens.LOCAL_KEY_ID, key);
    }

    /**
     * @param jar the built gantry-scheduler-svc.jar (its lib/ beside it)
     * @param nodes how many nodes the config declares (the partition has them all)
     * @param jvmOptions extra options for the scheduler's JVM (e.g. a JFR recording)
     */
    static SchedulerProcess start(Path jar, Path runDir, int nodes, List<String> jvmOptions, Duration timeout)
            throws IOException, InterruptedException {
        Path state = runDir.resolve("state");
        Files.createDirectories(state);
        Path config = runDir.resolve("gantry.conf");
        Files.writeString(config, config(nodes), StandardCharsets.UTF_8);
        int grpc = freePort();
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-XX:+UseSerialGC");
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow"); // protobuf-java 3.x; unknown before JDK 24
        }
        cmd.add("-Xmx1g");
        cmd.add("-Djava.io.tmpdir=" + state);
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jar.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve("scheduler.log").toFile()));
        // callers authenticate as with bin/gantry up: local tokens the clients sign with the cluster's authentication key
        dev.gantry.common.credential.CredentialKeys.createIfMissing(authKey(runDir), authPublicKey(runDir));
        pb.environment().put("GANTRY_AUTH_PUBLIC_KEY", authPublicKey(runDir).toString());
        // its service identity (the internal port needs one, though nothing calls it here)
        CertificateDirectory tls = CertificateDirectory.open(state.resolve("tls"), "bench", Instant.now());
        tls.issue(Peer.SCHEDULER, List.of(), Instant.now(), ClusterCa.DEFAULT_VALIDITY);
        pb.environment().putAll(Map.of(
                "GANTRY_TLS_CA", tls.caCertificate().toString(),
                "GANTRY_TLS_CERT", tls.certificate(Peer.SCHEDULER).toString(),
                "GANTRY_TLS_KEY", tls.key(Peer.SCHEDULER).toString(),
                "GANTRY_INTERNAL_PORT", Integer.toString(freePort())));
        pb.environment().putAll(Map.of(
                "GANTRY_BIND_HOST", "127.0.0.1",
                "GANTRY_CONFIG", config.toString(),
                "GANTRY_STATE_DIR", state.toString(),
                "GANTRY_SELECT_ADDRESS", "127.0.0.1:" + freePort(), // nothing listens: no pass ever asks it
                "GANTRY_GRPC_PORT", Integer.toString(grpc),
                "GANTRY_HTTP_PORT", Integer.toString(freePort())));
        SchedulerProcess s = new SchedulerProcess(runDir, state, grpc, pb.start());
        s.awaitServing(timeout);
        return s;
    }

    static String config(int nodes) {
        return """
                ClusterName=bench
                SelectType=select/cons_tres
                SelectTypeParameters=CR_Core_Memory
                NodeName=DEFAULT Sockets=2 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=192000
                NodeName=c[1-%d]
                # each client is one user submitting hundreds a second, far above the per-user request limit that
                # protects a shared controller: the bucket is made so large that the limiter still runs (its cost is
                # measured with the rest) but never refuses
                SlurmctldParameters=rl_bucket_size=1073741824,rl_refill_rate=1073741824
                # DOWN: jobs are queued but never started, so the run measures submission alone
                PartitionName=batch Nodes=c[1-%d] Default=YES MaxTime=2-00:00:00 DefaultTime=01:00:00 State=DOWN
                """.formatted(nodes, nodes);
    }

    String address() {
        return "127.0.0.1:" + grpcPort;
    }

    long pid() {
        return process.pid();
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /** The embedded PostgreSQL's postmaster (its backends are its children), from its pid file. */
    ProcessHandle postgres() throws IOException {
        Path pidFile = stateDir.resolve("pgdata").resolve("postmaster.pid");
        long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim());
        return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("PostgreSQL " + pid + " is not running"));
    }

    private void awaitServing(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        ManagedChannel ch = ManagedChannelBuilder.forTarget(address()).usePlaintext().build();
        try {
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("scheduler-svc exited with " + process.exitValue() + "; see "
                            + runDir.resolve("scheduler.log"));
                }
                try {
                    var r = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(1, TimeUnit.SECONDS)
                            .check(HealthCheckRequest.getDefaultInstance());
                    if (r.getStatus() == HealthCheckResponse.ServingStatus.SERVING) {
                        return;
                    }
                } catch (RuntimeException notYet) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException("scheduler-svc did not answer SERVING within " + timeout);
        } finally {
            ch.shutdownNow();
        }
    }

    /** Writes the scheduler's flight recording (started with -XX:StartFlightRecording) to its file, with jcmd. */
    void dumpRecording(Path file) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "JFR.dump", "filename=" + file).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve("jcmd.log").toFile())).start();
        p.waitFor(60, TimeUnit.SECONDS);
    }

    /**
     * A crash, not a shutdown: SIGKILL to the scheduler, then to its PostgreSQL (postmaster and every backend),
     * so nothing gets a chance to flush. What survives is what was committed to the WAL.
     */
    void crash() throws IOException, InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        if (!Files.exists(stateDir.resolve("pgdata").resolve("postmaster.pid"))) {
            return;
        }
        ProcessHandle postmaster = postgres();
        List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
        all.add(postmaster);
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : all) {
            p.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> p).join();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
