package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's attacks on the services' internal APIs, replayed on a real local cluster: an unprivileged local user
 * (created here when missing) runs {@link ServiceAttacker} against a running job of another user, and the agents'
 * certificates are turned against other nodes. Every attempt is refused, and the job runs on, its process alive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServiceIdentityE2ETest {

    private static final String ATTACKER = "gantry-attacker";

    private TestCluster cluster;
    private long victim;
    private long victimPid;
    private final List<ManagedChannel> channels = new ArrayList<>();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "identity", """
                ClusterName=identity-e2e
                KillWait=5
                NodeName=v[1-2] CPUs=2 RealMemory=2048
                PartitionName=debug Nodes=v[1-2] Default=YES MaxTime=60 State=UP
                """);
        Path pidFile = cluster.work.resolve("victim.pid");
        victim = cluster.submit("-w", "v1", "-o", "/dev/null", "--wrap", "echo $$ > " + pidFile + "; sleep 600");
        cluster.await(victim, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        TestCluster.awaitTrue(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), "the victim job wrote its pid");
        victimPid = Long.parseLong(Files.readString(pidFile).trim());
    }

    @AfterAll
    void down() throws Exception {
        channels.forEach(ManagedChannel::shutdownNow);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void anUnprivilegedUser_getsNothingFromTheInternalApis() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "creating a user and switching to it needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is not installed");
        String[] ids = attackerIds();
        assumeTrue(ids != null, "no unprivileged user " + ATTACKER + " could be created");
        Path classes = Path.of(ServiceAttacker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path lib = TestCluster.home().resolve("node-agent/target/lib");
        assumeTrue(readableByAll(classes) && readableByAll(lib), "the test classes (" + classes + ") or " + lib
                + " are not readable by other users");
        Properties p = cluster.clusterProperties();

        Map<String, String> seen = runAttacker(ids, classes, lib, List.of(
                "127.0.0.1:" + p.getProperty("scheduler.grpc"), "127.0.0.1:" + cluster.internalPort("scheduler"),
                "127.0.0.1:" + p.getProperty("agent-v1.grpc"), "127.0.0.1:" + cluster.internalPort("agent-v1"),
                Long.toString(victim), "v1", cluster.runDir.resolve("state").toString()));

        // the public ports no longer serve the internal services at all
        for (String attempt : List.of("public-ReportJobExit", "public-Heartbeat", "public-RegisterNode", "public-ApplySlice",
                "public-SignalJob", "public-SuspendJob", "public-TerminateJob")) {
            assertEquals("UNIMPLEMENTED", code(seen, attempt), attempt + ": " + seen.get(attempt));
        }
        // the internal ports: no certificate, plaintext, or a certificate of another CA all fail in the handshake
        for (String attempt : List.of("nocert-ReportJobExit", "nocert-ApplySlice", "nocert-SignalJob", "plaintext-SignalJob",
                "forged-ReportJobExit", "forged-SignalJob")) {
            assertEquals("UNAVAILABLE", code(seen, attempt), attempt + ": " + seen.get(attempt));
        }
        assertTrue(seen.get("READ v1.key").startsWith("no"), "the node's key is not readable: " + seen.get("READ v1.key"));
        assertTrue(seen.get("READ ca.key").startsWith("no"), "the CA's key is not readable: " + seen.get("READ ca.key"));
        assertVictimRuns();
    }

    /** With an agent's certificate (the test, as root, reads the state directory), another node is not to be spoken for. */
    @Test
    @Order(2)
    void anAgentsCertificate_speaksOnlyForItsOwnNode() throws Exception {
        AgentHubGrpc.AgentHubBlockingStub asV2 = AgentHubGrpc.newBlockingStub(internal("scheduler", new Peer.Node("v2"), Peer.SCHEDULER))
                .withDeadlineAfter(20, TimeUnit.SECONDS);

        StatusRuntimeException exit = assertThrows(StatusRuntimeException.class, () -> asV2.reportJobExit(
                ReportJobExitRequest.newBuilder().setJobId(victim).setNode("v1").build()));
        StatusRuntimeException heartbeat = assertThrows(StatusRuntimeException.class, () -> asV2.heartbeat(
                HeartbeatRequest.newBuilder().setNode("v1").build()));
        StatusRuntimeException register = assertThrows(StatusRuntimeException.class, () -> asV2.registerNode(
                RegisterNodeRequest.newBuilder().setNode("v1").setAgentAddress("127.0.0.1:1").build()));

        for (StatusRuntimeException e : List.of(exit, heartbeat, register)) {
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.toString());
            assertTrue(e.getStatus().getDescription().endsWith("for node v1 refused: the caller's certificate names node v2; "
                    + "an agent speaks only for its own node"), e.getStatus().getDescription());
        }
        assertVictimRuns();
    }

    /** An agent's or select-svc's certificate does not open another node's agent or gang-svc's control. */
    @Test
    @Order(3)
    void servicesCertificates_openOnlyWhatTheirServiceCalls() throws Exception {
        NodeAgentGrpc.NodeAgentBlockingStub v2AtV1 = NodeAgentGrpc.newBlockingStub(internal("agent-v1", new Peer.Node("v2"), new Peer.Node("v1")))
                .withDeadlineAfter(20, TimeUnit.SECONDS);
        GangControlGrpc.GangControlBlockingStub selectAtScheduler = GangControlGrpc.newBlockingStub(
                internal("scheduler", Peer.SELECT, Peer.SCHEDULER)).withDeadlineAfter(20, TimeUnit.SECONDS);

        StatusRuntimeException kill = assertThrows(StatusRuntimeException.class,
                () -> v2AtV1.signalJob(SignalJobRequest.newBuilder().setJobId(victim).setSignal(9).build()));
        StatusRuntimeException suspend = assertThrows(StatusRuntimeException.class,
                () -> selectAtScheduler.applySlice(ApplySliceRequest.newBuilder().addSuspend(victim).build()));

        assertEquals(Status.Code.PERMISSION_DENIED, kill.getStatus().getCode(), kill.toString());
        assertEquals("gantry.v1.NodeAgent/SignalJob refused to node v2: only scheduler-svc may call it", kill.getStatus().getDescription());
        assertEquals(Status.Code.PERMISSION_DENIED, suspend.getStatus().getCode(), suspend.toString());
        assertEquals("gantry.v1.GangControl/ApplySlice refused to service select-svc: only gang-svc may call it",
                suspend.getStatus().getDescription());
        assertVictimRuns();
        String log = Files.readString(cluster.runDir.resolve("logs/agent-v1.log"));
        assertTrue(log.contains("gantry.v1.NodeAgent/SignalJob refused to node v2"), "refusals are logged");
    }

    private ManagedChannel internal(String service, Peer as, Peer server) throws Exception {
        ManagedChannel ch = cluster.internalChannel(service, as, server);
        channels.add(ch);
        return ch;
    }

    /** The job is still RUNNING for the controller, and its process is alive and not stopped. */
    private void assertVictimRuns() throws Exception {
        Job job = cluster.await(victim, j -> true);
        assertEquals(JobState.JOB_STATE_RUNNING, job.getState(), job.toString());
        Path stat = Path.of("/proc/" + victimPid + "/stat");
        assertTrue(Files.exists(stat), "the victim's process " + victimPid + " is alive");
        String state = Files.readString(stat).replaceFirst("^.*\\) ", "").substring(0, 1);
        assertTrue(!state.equals("T") && !state.equals("Z"), "the victim's process is neither stopped nor dead: " + state);
    }

    private static String code(Map<String, String> seen, String attempt) {
        String line = seen.get(attempt);
        assertTrue(line != null, "the attacker made the attempt " + attempt + ": " + seen);
        return line.split(" ", 2)[0];
    }

    /** Runs the attacker as {@code ids} (uid, gid): attempt name (or READ file) → what it got. */
    private Map<String, String> runAttacker(String[] ids, Path classes, Path lib, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + ids[0], "--regid=" + ids[1], "--init-groups",
                ProcessHandle.current().info().command().orElse("java"), "-XX:-UsePerfData", "-Djava.io.tmpdir=/tmp"));
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(List.of("-cp", classes + ":" + lib + "/*", ServiceAttacker.class.getName()));
        command.addAll(args);
        Process proc = new ProcessBuilder(command).directory(Path.of("/tmp").toFile()).redirectErrorStream(true).start();
        proc.getOutputStream().close();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.println("the attacker, as " + ATTACKER + ":");
        out.lines().filter(l -> l.matches("(ATTEMPT|READ|DONE).*")).forEach(System.out::println);
        assertTrue(proc.waitFor(5, TimeUnit.MINUTES), "the attacker finished");
        assertEquals(0, proc.exitValue(), out);
        assertTrue(out.contains("DONE"), out);
        Map<String, String> seen = new LinkedHashMap<>();
        Function<String, String> rest = l -> l.substring(l.indexOf(' ', l.indexOf(' ') + 1) + 1);
        for (String line : out.lines().toList()) {
            if (line.startsWith("ATTEMPT ")) {
                seen.put(line.split(" ")[1], rest.apply(line));
            } else if (line.startsWith("READ ")) {
                String[] parts = line.split(" ", 3);
                seen.put("READ " + parts[1], parts[2]);
            }
        }
        return seen;
    }

    /** uid and gid of the unprivileged user, created (no home, no login shell) when missing; null when impossible. */
    private static String[] attackerIds() throws Exception {
        if (run("id", "-u", ATTACKER) != 0) {
            run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER);
        }
        Process uid = new ProcessBuilder("id", "-u", ATTACKER).start();
        Process gid = new ProcessBuilder("id", "-g", ATTACKER).start();
        String u = new String(uid.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        String g = new String(gid.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (uid.waitFor() != 0 || gid.waitFor() != 0 || u.isEmpty() || u.equals("0")) {
            return null;
        }
        return new String[] {u, g};
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    /** Every directory from the root down to {@code path} lets others in, and {@code path} lets them read. */
    private static boolean readableByAll(Path path) throws Exception {
        for (Path p = path.toAbsolutePath(); p != null; p = p.getParent()) {
            var perms = Files.getPosixFilePermissions(p);
            if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE) || (p.equals(path) && !perms.contains(PosixFilePermission.OTHERS_READ))) {
                return false;
            }
        }
        return true;
    }
}
