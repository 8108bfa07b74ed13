package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.cli.controller.CallerCredential;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local cluster started with {@code bin/gantry up} for one test class, and what tests do with it: submit
 * with {@code bin/sbatch}, wait for a job's state over gRPC, read the run directory. {@link #close} runs
 * {@code bin/gantry down} and checks that no service process is left.
 */
final class TestCluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(90);
    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);

    final Path tmp;
    final Path work;
    final Path runDir;
    final Shell shell;
    final Shell.Result upResult;
    final ControllerGrpc.ControllerBlockingStub controller;
    private final ManagedChannel channel;

    private TestCluster(Path tmp, Path work, Path runDir, Shell shell, Shell.Result upResult, ManagedChannel channel) {
        this.tmp = tmp;
        this.work = work;
        this.runDir = runDir;
        this.shell = shell;
        this.upResult = upResult;
        this.channel = channel;
        this.controller = ControllerGrpc.newBlockingStub(channel);
    }

    /**
     * The tree whose bin/ and built jars the tests run: GANTRY_E2E_HOME (another tree, e.g. a copy while this one
     * is rebuilt), else the build's {@code gantry.home}.
     */
    static Path home() {
        String dir = System.getenv().getOrDefault("GANTRY_E2E_HOME", System.getProperty("gantry.home", ".."));
        return Path.of(dir).toAbsolutePath().normalize();
    }

    /** Writes {@code config} as {@code name}.conf under {@code tmp} and starts a cluster from it; fails the test if it does not start. */
    static TestCluster start(Path tmp, String name, String config, String... upOptions) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Path runDir = tmp.resolve("run");
        Path conf = tmp.resolve(name + ".conf");
        Files.writeString(conf, config);
        Shell shell = new Shell(home(), Map.of("GANTRY_RUN_DIR", runDir.toString(), "GANTRY_CONTROLLER", ""));
        List<String> args = new java.util.ArrayList<>(List.of("up", "--config", conf.toString(), "--run-dir", runDir.toString()));
        args.addAll(List.of(upOptions));
        Shell.Result up = shell.run(tmp, "gantry", args.toArray(String[]::new));
        assertEquals(0, up.exit(), up.toString());
        // one line per controller (a standby's too): calls follow the one that answers
        List<String> addresses = Files.readString(runDir.resolve("controller.addr")).lines().map(String::trim)
                .filter(l -> !l.isEmpty()).toList();
        Path ca = runDir.resolve("controller-ca.crt"); // gantry up --public-tls: the client API over TLS
        return new TestCluster(tmp, work, runDir, shell, up, dev.gantry.common.failover.FollowingChannel.open(addresses, address ->
                (Files.exists(ca) ? io.grpc.Grpc.newChannelBuilder(address, tlsTrusting(ca)) : ManagedChannelBuilder.forTarget(address).usePlaintext())
                        // as the user running the tests, authenticated as the cluster's own tools are
                        .intercept(CallerCredential.forCluster(runDir))
                        .build()));
    }

    private static io.grpc.ChannelCredentials tlsTrusting(Path ca) {
        try {
            return io.grpc.TlsChannelCredentials.newBuilder().trustManager(ca.toFile()).build();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A fresh random HS256 key for {@code AuthAltParameters=jwt_key=…}, written to {@code dir/jwt_hs256.key} readable
     * by its owner only (the controller refuses a key others can read); its path.
     */
    static Path writeJwtKey(Path dir) throws java.io.IOException {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        Path file = dir.resolve("jwt_hs256.key");
        Files.write(file, key);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /** Runs sbatch in {@code cwd} and returns the job id it printed. */
    long submit(Path cwd, String... args) throws Exception {
        Shell.Result r = shell.run(cwd, "sbatch", args);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    /** Runs sbatch in the work directory. */
    long submit(String... args) throws Exception {
        return submit(work, args);
    }

    /** Waits until the job satisfies {@code condition} (tolerating a restarting controller); fails after {@link #WAIT}. */
    Job await(long id, Predicate<Job> condition) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        Job last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                // a deadline: a frozen controller (a standby's test) must not hold the wait forever
                last = controller.withDeadlineAfter(10, java.util.concurrent.TimeUnit.SECONDS).getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
                if (condition.test(last)) {
                    return last;
                }
            } catch (StatusRuntimeException e) {
                // the controller is restarting
            }
            Thread.sleep(100);
        }
        fail("job " + id + " did not reach the expected state; last seen: " + last);
        return null;
    }

    interface Check {
        boolean holds() throws Exception;
    }

    /** Waits until {@code check} holds (a gRPC error counts as not yet); fails after {@link #WAIT}. */
    static void awaitTrue(Check check, String what) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(deadline)) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (StatusRuntimeException e) {
                // not ready yet
            }
            Thread.sleep(100);
        }
        fail("timed out waiting until " + what);
    }

    /** Copies the services' logs (the run directory's {@code logs}) into {@code dir}, replacing what it held. */
    void copyLogs(Path dir) throws java.io.IOException {
        Files.createDirectories(dir);
        try (var logs = Files.list(runDir.resolve("logs"))) {
            for (Path log : logs.toList()) {
                Files.copy(log, dir.resolve(log.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** What {@code gantry up} recorded: ports, pids, logs of every service. */
    Properties clusterProperties() throws Exception {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(runDir.resolve("cluster.properties"))) {
            p.load(r);
        }
        return p;
    }

    private List<Long> servicePids() throws Exception {
        Properties p = clusterProperties();
        return p.stringPropertyNames().stream().filter(k -> k.endsWith(".pid")).map(k -> Long.parseLong(p.getProperty(k))).toList();
    }

    /** The internal (mutual TLS) port of {@code service} ("scheduler", "select", "gang", "agent-n1"). */
    int internalPort(String service) throws Exception {
        return Integer.parseInt(clusterProperties().getProperty(service + ".env.GANTRY_INTERNAL_PORT"));
    }

    /** The state directory's cluster certificates (state/tls), which the tests, running as root, may read. */
    CertificateDirectory certificates() throws Exception {
        return CertificateDirectory.open(runDir.resolve("state/tls"), "unused: the CA exists", Instant.now());
    }

    /** A channel to {@code service}'s internal port that presents {@code as}'s certificate and expects {@code server}. */
    ManagedChannel internalChannel(String service, Peer as, Peer server) throws Exception {
        return new InternalChannels(certificates().load(as, Instant.now())).open("127.0.0.1:" + internalPort(service), server);
    }

    /** Stops the cluster with bin/gantry down and checks that every service process is gone. */
    @Override
    public void close() throws Exception {
        channel.shutdownNow();
        List<Long> pids = servicePids();
        Shell.Result down = shell.run(tmp, "gantry", "down", "--run-dir", runDir.toString());
        assertEquals(0, down.exit(), down.toString());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "service pid " + pid + " still runs");
        }
    }
}
