package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Liveness judged fairly, on a real local cluster with SlurmdTimeout=6 and a job running on each of its three nodes:
 * (1) scheduler-svc stopped (SIGSTOP) for longer than SlurmdTimeout sets no node DOWN when it runs again, requeues
 * nothing, and every job keeps running with its process alive; (2) an agent stopped past SlurmdTimeout has its node
 * set DOWN and its job requeued; continued (SIGCONT), it registers again by itself, its node returns to service, its
 * old run's processes are killed, and the requeued job runs once more and completes. The times from SIGCONT to the
 * node being back and to the old run's processes being gone are printed ("liveness figure").
 *
 * <p>Runs with the fault-injection suite's long form ({@code GANTRY_FAULTS=long}, e2e/faults/inject.sh): CI's short
 * form of {@link FaultInjectionE2ETest} freezes scheduler-svc and an agent past SlurmdTimeout under load and checks the
 * same outcomes (no node DOWN, nothing requeued, every process alive; the frozen agent's node back, no orphan), so
 * this class adds its figures, not coverage, and the suite stays under its time budget.
 */
@org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(named = "GANTRY_FAULTS", matches = "long")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LivenessE2ETest {

    private static final int SLURMD_TIMEOUT = 6;
    /** How long the agent stays stopped: past SlurmdTimeout and past the agent's own call deadline (10 s). */
    private static final int AGENT_STOP_SECONDS = 15;

    private TestCluster cluster;
    private final List<Long> jobs = new ArrayList<>();
    private final Map<Long, Long> firstPid = new HashMap<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "liveness", """
                ClusterName=liveness
                SlurmdTimeout=%d
                JobRequeue=1
                KillWait=2
                NodeName=n[1-3] CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=60 State=UP
                """.formatted(SLURMD_TIMEOUT));
        // a first run loops for ever, counting; a later run (after a requeue) ends on its own, successfully
        Path script = cluster.work.resolve("count.sh");
        Files.writeString(script, """
                #!/bin/bash
                run=${SLURM_RESTART_COUNT:-0}
                echo "start run=$run pid=$$" >> %1$s/runs-$SLURM_JOB_ID.log
                echo $$ > %1$s/pid-$SLURM_JOB_ID-$run
                if [ "$run" -gt 0 ]; then sleep 2; exit 0; fi
                i=0
                while true; do i=$((i+1)); echo $i > %1$s/count-$SLURM_JOB_ID; sleep 0.2; done
                """.formatted(cluster.work));
        for (int i = 0; i < 3; i++) {
            jobs.add(cluster.submit("-n", "2", "-o", cluster.work.resolve("out-%j.log").toString(), script.toString()));
        }
        for (long id : jobs) {
            cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
            Path pidFile = cluster.work.resolve("pid-" + id + "-0");
            TestCluster.awaitTrue(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), "job " + id + " wrote its pid");
            firstPid.put(id, Long.parseLong(Files.readString(pidFile).strip()));
        }
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.copyLogs(Path.of("target", "liveness-logs"));
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aControllerStoppedLongerThanSlurmdTimeout_setsNoNodeDown_andEveryJobKeepsRunning() throws Exception {
        long scheduler = pid("scheduler");
        signal("STOP", scheduler);
        try {
            Thread.sleep(TimeUnit.SECONDS.toMillis(SLURMD_TIMEOUT * 2 + 3));
        } finally {
            signal("CONT", scheduler);
        }
        // for two SlurmdTimeouts after it runs again, no node is ever seen DOWN and no job leaves RUNNING
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(SLURMD_TIMEOUT * 2);
        int looks = 0;
        while (System.nanoTime() < until) {
            try {
                for (Node n : nodes()) {
                    assertFalse(n.getNotResponding() || n.getState() == NodeState.NODE_STATE_DOWN, "node set DOWN: " + n);
                }
                for (long id : jobs) {
                    Job j = job(id);
                    assertEquals(JobState.JOB_STATE_RUNNING, j.getState(), "job " + id + ": " + j);
                    assertEquals(0, j.getRestartCount(), "job " + id + " was requeued: " + j);
                }
                looks++;
            } catch (io.grpc.StatusRuntimeException e) {
                // the controller is catching up; look again
            }
            Thread.sleep(200);
        }
        assertTrue(looks > 10, "the controller answered only " + looks + " times after it ran again");
        for (long id : jobs) {
            assertTrue(alive(firstPid.get(id)), "job " + id + "'s batch script is alive");
            long count = counter(id);
            TestCluster.awaitTrue(() -> counter(id) > count, "job " + id + " keeps counting");
            assertEquals(1, Files.readAllLines(cluster.work.resolve("runs-" + id + ".log")).size(), "job " + id + " ran once");
        }
        assertTrue(metric("scheduler", "gantry_controller_pauses_total") >= 1, "the pause was counted");
    }

    @Test
    @Order(2)
    void anAgentStoppedPastSlurmdTimeout_registersAgainWhenContinued_killsItsOldRun_andTheRequeuedJobRunsOnce() throws Exception {
        long id = jobs.stream().filter(j -> job(j).getNodeList().equals("n1")).findFirst().orElseThrow();
        long oldRun = firstPid.get(id);
        long agent = pid("agent-n1");
        long stoppedAt = System.nanoTime();
        signal("STOP", agent);
        long continuedAt;
        try {
            TestCluster.awaitTrue(() -> node("n1").getNotResponding(), "n1 is set DOWN (not responding)");
            cluster.await(id, j -> j.getRestartCount() == 1 && j.getState() == JobState.JOB_STATE_PENDING);
            assertTrue(alive(oldRun), "its run 0 still runs while the agent is stopped");
            // stopped past its own 10 s call deadline too: the heartbeat it was waiting on has failed when it runs again
            long left = TimeUnit.SECONDS.toNanos(AGENT_STOP_SECONDS) - (System.nanoTime() - stoppedAt);
            if (left > 0) {
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(left));
            }
            Job meanwhile = job(id);
            assertEquals(JobState.JOB_STATE_PENDING, meanwhile.getState(), "no node is free for it but n1, which is DOWN: " + meanwhile);
        } finally {
            signal("CONT", agent);
            continuedAt = System.nanoTime();
        }
        long backAt = 0;
        long goneAt = 0;
        long deadline = continuedAt + TestCluster.WAIT.toNanos();
        while ((backAt == 0 || goneAt == 0) && System.nanoTime() < deadline) {
            if (goneAt == 0 && !alive(oldRun) && firstRunProcesses(id).isEmpty()) {
                goneAt = System.nanoTime();
            }
            if (backAt == 0) {
                try {
                    Node n = node("n1");
                    if (!n.getNotResponding() && n.getState() != NodeState.NODE_STATE_DOWN && n.getState() != NodeState.NODE_STATE_UNKNOWN) {
                        backAt = System.nanoTime();
                    }
                } catch (io.grpc.StatusRuntimeException e) {
                    // the controller is busy with the registration; look again
                }
            }
            Thread.sleep(20);
        }
        assertTrue(backAt != 0, "n1 came back into service");
        assertTrue(goneAt != 0, "run 0's batch script (pid " + oldRun + ") and every process of run 0 were killed");
        System.out.printf("liveness figure: agent stopped %.1f s; from SIGCONT: node back in service %.2f s, old run's processes gone %.2f s%n",
                (continuedAt - stoppedAt) / 1e9, (backAt - continuedAt) / 1e9, (goneAt - continuedAt) / 1e9);

        Job done = cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_COMPLETED, done.getState(), "the requeued job completes normally: " + done);
        assertEquals(1, done.getRestartCount(), "requeued once");
        assertEquals(List.of("start run=0 pid=" + oldRun), Files.readAllLines(cluster.work.resolve("runs-" + id + ".log")).subList(0, 1));
        assertEquals(2, Files.readAllLines(cluster.work.resolve("runs-" + id + ".log")).size(), "run 0 and one run 1, no other");
        assertEquals(List.of(), Procs.ofJob(cluster, id), "no process of either run is left");
        for (long other : jobs) {
            if (other != id) {
                Job j = job(other);
                assertEquals(JobState.JOB_STATE_RUNNING, j.getState(), "job " + other + " on another node: " + j);
                assertEquals(0, j.getRestartCount());
                assertTrue(alive(firstPid.get(other)));
            }
        }
        assertTrue(metric("scheduler", "gantry_nodes_returned_total") >= 1, "the node's return was counted");
    }

    private Job job(long id) {
        return cluster.controller.withDeadlineAfter(10, TimeUnit.SECONDS).getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    private List<Node> nodes() {
        return cluster.controller.withDeadlineAfter(10, TimeUnit.SECONDS).listNodes(ListNodesRequest.getDefaultInstance()).getNodesList();
    }

    private Node node(String name) {
        return nodes().stream().filter(n -> n.getName().equals(name)).findFirst().orElseThrow();
    }

    private long counter(long id) throws Exception {
        String text = Files.readString(cluster.work.resolve("count-" + id)).strip();
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    /** The live processes of the job's first run: the job's processes without SLURM_RESTART_COUNT (set from run 1 on). */
    private List<Long> firstRunProcesses(long id) throws Exception {
        List<Long> pids = new ArrayList<>();
        for (long pid : Procs.ofJob(cluster, id)) {
            try {
                String env = Files.readString(Path.of("/proc/" + pid + "/environ"), java.nio.charset.StandardCharsets.ISO_8859_1);
                if (!env.contains("\0SLURM_RESTART_COUNT=") && !env.startsWith("SLURM_RESTART_COUNT=") && alive(pid)) {
                    pids.add(pid);
                }
            } catch (java.io.IOException gone) {
                // exited meanwhile
            }
        }
        return pids;
    }

    private long pid(String service) throws Exception {
        return Long.parseLong(cluster.clusterProperties().getProperty(service + ".pid"));
    }

    private static void signal(String name, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + name + " " + pid);
    }

    /** Whether {@code pid} is a live process (a zombie, killed but not yet reaped, is not). */
    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException gone) {
            return false;
        }
    }

    /** The value of the first sample of {@code service}'s /prometheus whose line starts with {@code prefix}. */
    private double metric(String service, String prefix) throws Exception {
        int port = Integer.parseInt(cluster.clusterProperties().getProperty(service + ".http"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body().lines().filter(l -> l.startsWith(prefix)).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError(service + " has no sample " + prefix));
    }
}
