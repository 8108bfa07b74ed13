package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local cluster's supervision end to end: a service killed with SIGKILL is started again by the supervisor (new
 * pid, SERVING, {@code gantry status} says restarts=1 and how it died) and what it did resumes (gang time slices);
 * {@code gantry restart scheduler} keeps the running jobs and sets no node DOWN; {@code gantry down} leaves no job
 * process, not one that ignores SIGTERM nor one that went into a session of its own; and {@code gantry up} on the run
 * directory of a cluster that died without {@code down} kills what that cluster's jobs left.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SupervisionE2ETest {

    private static final String CONFIG = """
            ClusterName=e2e-supervision
            KillWait=2
            PreemptMode=GANG
            SchedulerTimeSlice=2
            NodeName=s[1-2] CPUs=1 RealMemory=1024
            PartitionName=gang Nodes=s[1-2] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE:2
            """;

    private TestCluster cluster;
    private Path tmp;
    /** In every job's environment (and so its children's): finds this class's job processes in /proc, and no one else's. */
    private final String mark = "SUPERVISION_E2E_MARK=" + UUID.randomUUID();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        this.tmp = tmp;
        cluster = TestCluster.start(tmp, "supervision", CONFIG);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void gangSvcKilled_isRestartedBySupervisor_andTimeSlicingResumes() throws Exception {
        String spin = "while :; do :; done";
        long a = cluster.submit("-N", "2", "-o", "/dev/null", "--wrap", spin);
        long b = cluster.submit("-N", "2", "-o", "/dev/null", "--wrap", spin);
        try {
            SliceTurns.awaitTurns(cluster, a, b, 2, Duration.ofSeconds(60));
            killAndAwaitRestart("gang");
            // a suspended job gets its turn again: the new gang-svc took up the slices
            SliceTurns.awaitTurns(cluster, a, b, 3, Duration.ofSeconds(60));
        } finally {
            assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(a), Long.toString(b)).exit());
        }
        cluster.await(a, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
        cluster.await(b, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
    }

    @Test
    @Order(2)
    void selectSvcKilled_isRestartedBySupervisor_andJobsArePlacedAgain() throws Exception {
        killAndAwaitRestart("select");
        long id = cluster.submit("-o", "/dev/null", "--wrap", "true");
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
    }

    @Test
    @Order(3)
    void gracefulSchedulerRestart_keepsRunningJobs_andSetsNoNodeDown() throws Exception {
        long id = cluster.submit("-o", "/dev/null", "--wrap", marked(mark + "-restart", "exec sleep 300"));
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        TestCluster.awaitTrue(() -> !marked(mark + "-restart").isEmpty(), "job " + id + "'s process runs");
        List<Long> before = marked(mark + "-restart");
        String oldPid = cluster.clusterProperties().getProperty("scheduler.pid");
        // a job watcher is open, as sbatch --wait's is: it held the stopping gRPC server for 30 s
        Context.CancellableContext watching = Context.current().withCancellation();
        try {
            Iterator<WatchJobsResponse> watch = watching.call(() -> cluster.controller.watchJobs(WatchJobsRequest.getDefaultInstance()));
            watch.next(); // the snapshot: the watcher is open

            long t0 = System.nanoTime();
            Shell.Result restart = cluster.shell.run(tmp, "gantry", "restart", "scheduler", "--run-dir", cluster.runDir.toString());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(0, restart.exit(), restart.toString());
            System.out.println("gantry restart scheduler took " + ms + " ms (bin/gantry, end to end)");
            // the stopping controller ended the watcher (it re-subscribes to the next one)
            StatusRuntimeException ended = assertThrows(StatusRuntimeException.class, () -> {
                while (watch.hasNext()) {
                    watch.next();
                }
            });
            assertEquals(Status.Code.UNAVAILABLE, ended.getStatus().getCode(), ended.toString());
        } finally {
            watching.cancel(null);
        }
        assertNotEquals(oldPid, cluster.clusterProperties().getProperty("scheduler.pid"));
        // the stopping controller drained and stopped in order (SchedulerRuntime.close), its database last
        String log = Files.readString(cluster.runDir.resolve("logs/scheduler.log"));
        assertTrue(log.contains("scheduler-svc stopped: controller drained, writes committed, database closed"), log);
        assertFalse(log.contains("set DOWN"), "a node was set DOWN:\n" + log);
        // SIGTERM to exit, as the supervisor saw it: it took 30 s and more with a watcher open, and 41 s when the
        // database also stopped first; the new process's start, the rest of a restart, depends on the machine's load
        Matcher stop = Pattern.compile("scheduler: stopped as asked in (\\d+) ms")
                .matcher(Files.readString(cluster.runDir.resolve("logs/supervisor.log")));
        assertTrue(stop.find(), "the supervisor logged the stop");
        // handed over: the successor was started, and ready, before the old one was stopped
        assertTrue(Files.readString(cluster.runDir.resolve("logs/supervisor.log")).contains("scheduler: successor ready after"),
                "the successor was ready before the stop");
        assertTrue(log.contains("waiting for the scheduler-svc it replaces (pid " + oldPid + ") to stop"), log);
        long stopMs = Long.parseLong(stop.group(1));
        System.out.println("scheduler-svc stopped " + stopMs + " ms after SIGTERM");
        assertTrue(stopMs < 10_000, "scheduler-svc took " + stopMs + " ms to stop");

        // every node registers again and none is DOWN; the job runs on, with the same process
        TestCluster.awaitTrue(() -> nodes().stream().allMatch(n -> n.getState() != NodeState.NODE_STATE_UNKNOWN), "nodes registered");
        for (Node n : nodes()) {
            assertNotEquals(NodeState.NODE_STATE_DOWN, n.getState(), n.toString());
            assertFalse(n.getNotResponding(), n.toString());
        }
        var job = cluster.await(id, j -> true);
        assertEquals(JobState.JOB_STATE_RUNNING, job.getState());
        assertEquals(0, job.getRestartCount());
        assertEquals(before, marked(mark + "-restart"));
        Shell.Result status = cluster.shell.run(tmp, "gantry", "status", "--run-dir", cluster.runDir.toString());
        assertTrue(statusLine(status.out(), "scheduler").contains("restarts=0"), "a restart asked for is not a crash:\n" + status.out());
        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(id)).exit());
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
    }

    @Test
    @Order(4)
    void down_leavesNoJobProcess_evenOneIgnoringSigtermOrInItsOwnSession_andUpWorksAfter() throws Exception {
        String stubborn = mark + "-down";
        long ignoring = cluster.submit("-o", "/dev/null", "--wrap", marked(stubborn, "trap '' TERM; while :; do sleep 1; done"));
        long forking = submitForking(stubborn);
        cluster.await(ignoring, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        cluster.await(forking, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        // the job shells, their sleeps and the setsid'd child
        TestCluster.awaitTrue(() -> marked(stubborn).size() >= 3, "the jobs' processes run");
        long supervisor = Long.parseLong(Files.readString(cluster.runDir.resolve("supervisor.pid")).trim());

        Shell.Result down = cluster.shell.run(tmp, "gantry", "down", "--run-dir", cluster.runDir.toString());
        assertEquals(0, down.exit(), down.toString());
        assertEquals(List.of(), marked(stubborn), "job processes left after gantry down:\n" + down);
        assertFalse(ProcessHandle.of(supervisor).map(ProcessHandle::isAlive).orElse(false), "the supervisor outlived down");

        Shell.Result up = cluster.shell.run(tmp, "gantry", "up", "--config", tmp.resolve("supervision.conf").toString(),
                "--run-dir", cluster.runDir.toString());
        assertEquals(0, up.exit(), up.toString());
        assertEquals(0, cluster.shell.run(tmp, "gantry", "status", "--run-dir", cluster.runDir.toString()).exit());
    }

    @Test
    @Order(5)
    void up_killsWhatJobsOfAClusterThatDiedWithoutDownLeft() throws Exception {
        String leftover = mark + "-crash";
        long id = submitForking(leftover);
        TestCluster.awaitTrue(() -> marked(leftover).size() >= 2, "job " + id + "'s processes run");
        // the supervisor dies first: the services keep running, and status says it is gone
        long supervisor = Long.parseLong(Files.readString(cluster.runDir.resolve("supervisor.pid")).trim());
        ProcessHandle.of(supervisor).orElseThrow().destroyForcibly();
        ProcessHandle.of(supervisor).ifPresent(h -> h.onExit().join());
        Shell.Result status = cluster.shell.run(tmp, "gantry", "status", "--run-dir", cluster.runDir.toString());
        assertEquals(1, status.exit(), status.toString());
        assertTrue(status.out().contains("supervisor: GONE"), status.out());
        for (String service : List.of("scheduler", "select", "gang", "agent-s1", "agent-s2")) {
            assertTrue(statusLine(status.out(), service).contains(" serving "), status.out());
        }
        // then the whole cluster dies at once: nothing cancels, nothing kills the job
        List<Long> pids = new ArrayList<>();
        cluster.clusterProperties().forEach((k, v) -> {
            if (k.toString().endsWith(".pid")) {
                pids.add(Long.parseLong(v.toString()));
            }
        });
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
        }
        assertFalse(marked(leftover).isEmpty(), "the job outlives its cluster until the next up");

        Shell.Result up = cluster.shell.run(tmp, "gantry", "up", "--config", tmp.resolve("supervision.conf").toString(),
                "--run-dir", cluster.runDir.toString());
        assertEquals(0, up.exit(), up.toString());
        assertTrue(up.out().contains("job process(es) left of an earlier cluster"), up.toString());
        assertEquals(List.of(), marked(leftover), "job processes of the dead cluster after gantry up:\n" + up);
    }

    /** A job whose shell and every process below it carry {@code variable}, running {@code script}. */
    private static String marked(String variable, String script) {
        return "exec env " + variable + " bash -c '" + script.replace("'", "'\\''") + "'";
    }

    /** A job that starts a child in a session of its own (setsid nohup), as a daemonizing program does, and sleeps. */
    private long submitForking(String variable) throws Exception {
        return cluster.submit("-o", "/dev/null", "--wrap",
                marked(variable, "setsid nohup sleep 600 >/dev/null 2>&1 </dev/null & exec sleep 600"));
    }

    /** Kills {@code service} with SIGKILL and waits until the supervisor has it SERVING again as a new process. */
    private void killAndAwaitRestart(String service) throws Exception {
        long old = Long.parseLong(cluster.clusterProperties().getProperty(service + ".pid"));
        ProcessHandle.of(old).orElseThrow().destroyForcibly();
        TestCluster.awaitTrue(() -> {
            long now = Long.parseLong(cluster.clusterProperties().getProperty(service + ".pid"));
            return now != old && ProcessHandle.of(now).map(ProcessHandle::isAlive).orElse(false) && serving(service);
        }, service + " restarted by the supervisor and SERVING");
        Shell.Result status = cluster.shell.run(tmp, "gantry", "status", "--run-dir", cluster.runDir.toString());
        String line = statusLine(status.out(), service);
        assertTrue(line.contains("restarts=1") && line.contains("killed by signal 9"), status.out());
        assertTrue(status.out().contains("supervisor: running"), status.out());
        assertTrue(Files.readString(cluster.runDir.resolve("logs/supervisor.log")).contains(service + ": restarted as pid"));
    }

    private boolean serving(String service) throws Exception {
        int port = Integer.parseInt(cluster.clusterProperties().getProperty(service + ".grpc"));
        ManagedChannel ch = ManagedChannelBuilder.forTarget("127.0.0.1:" + port).usePlaintext().build();
        try {
            return HealthGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
                    .getStatus() == HealthCheckResponse.ServingStatus.SERVING;
        } finally {
            ch.shutdownNow();
        }
    }

    private List<Node> nodes() {
        return cluster.controller.listNodes(ListNodesRequest.getDefaultInstance()).getNodesList();
    }

    private static String statusLine(String out, String service) {
        return out.lines().filter(l -> l.startsWith(service + " ")).findFirst().orElse("(no line for " + service + ")");
    }

    /** The processes whose environment holds {@code variable} (NAME=VALUE): this class's jobs and their children only. */
    private static List<Long> marked(String variable) throws IOException {
        return Procs.withVariable(variable);
    }
}
