package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * Two controllers (two SlurmctldHost lines) on one local cluster, under a small load of submissions and running jobs:
 * kill -9 of the active one (the standby takes the lease once it expires, or the killed one, restarted by the
 * supervisor, takes its own lease back first), then SIGSTOP of the active one past its lease and SIGCONT (the standby
 * takes over). Each time every acknowledged submission is there, every running job keeps its processes, and no job
 * runs twice; the frozen one, resumed, is deposed and exits. Prints the measured failover times (docs/reliability.md).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandbyControllerE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);

    private TestCluster cluster;
    /** The long jobs and their processes when they started: kept, the same, through every failover. */
    private final Map<Long, List<Long>> longJobs = new LinkedHashMap<>();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "standby", """
                ClusterName=standby
                SlurmctldHost=ctl0
                SlurmctldHost=ctl1
                KillWait=5
                NodeName=n[1-2] CPUs=4 RealMemory=2048
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                """);
        assertTrue(cluster.clusterProperties().getProperty("services").contains("scheduler-backup"),
                cluster.clusterProperties().getProperty("services"));
        assertEquals(2, Files.readString(cluster.runDir.resolve("controller.addr")).lines().count(), "both controllers for the commands");
        for (int i = 0; i < 3; i++) {
            long id = cluster.submit("--wrap", "sleep 600");
            cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
            TestCluster.awaitTrue(() -> { // its script has started its sleep: the set no longer changes
                List<Long> before = processesOf(id);
                Thread.sleep(500);
                return !before.isEmpty() && before.equals(processesOf(id));
            }, "job " + id + "'s processes appear");
            longJobs.put(id, processesOf(id));
        }
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.copyLogs(Path.of("target", "standby-e2e-logs"));
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void killNineOfTheActiveController_anotherTakesOver_losingNoAcknowledgedSubmission_andKeepingEveryRunningJob() throws Exception {
        String first = active();
        String second = other(first);
        assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, health(second), "the standby is live, not serving");

        try (Submitter load = new Submitter()) {
            load.awaitAcknowledged(3);
            long pid = pid(first);
            long killed = System.nanoTime();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            // the standby takes the lease once it expires; the supervisor restarts the killed one, which takes its own
            // lease back at once: whichever comes first is the active controller
            TestCluster.awaitTrue(() -> health(second) == HealthCheckResponse.ServingStatus.SERVING
                    || pid(first) != pid && health(first) == HealthCheckResponse.ServingStatus.SERVING, "a controller serves again");
            long serving = System.nanoTime();
            String now = health(second) == HealthCheckResponse.ServingStatus.SERVING ? "the standby" : "the restarted controller";
            long firstAfter = cluster.submit("--wrap", "true");
            long accepted = System.nanoTime();
            System.out.printf("FAILOVER kill -9: %s SERVING after %d ms, a submission accepted after %d ms%n", now,
                    (serving - killed) / 1_000_000, (accepted - killed) / 1_000_000);
            cluster.await(firstAfter, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
            load.awaitAcknowledged(load.acknowledged().size() + 3); // the commands follow the new controller
            load.stop();
            checkInvariants(load.acknowledged());
        }
    }

    @Test
    @Order(2)
    void aControllerFrozenPastItsLease_isDeposed_andWhenResumedExits_whileTheStandbyRuns() throws Exception {
        String frozenOne = active();
        String standby = other(frozenOne);
        // the other one is the standby (the killed one came back as a standby, restarted by the supervisor)
        TestCluster.awaitTrue(() -> health(standby) == HealthCheckResponse.ServingStatus.NOT_SERVING, standby + " is the standby");

        try (Submitter load = new Submitter()) {
            load.awaitAcknowledged(3);
            long frozen = pid(frozenOne);
            long stopped = System.nanoTime();
            signal("STOP", frozen);
            try {
                TestCluster.awaitTrue(() -> health(standby) == HealthCheckResponse.ServingStatus.SERVING, standby + " takes over");
                long tookOver = System.nanoTime();
                long during = cluster.submit("--wrap", "true");
                System.out.printf("FAILOVER SIGSTOP: standby SERVING after %d ms, a submission accepted after %d ms%n",
                        (tookOver - stopped) / 1_000_000, (System.nanoTime() - stopped) / 1_000_000);
                cluster.await(during, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
            } finally {
                signal("CONT", frozen);
            }
            // resumed, it finds its lease taken and exits at once: it launches and writes nothing
            TestCluster.awaitTrue(() -> !ProcessHandle.of(frozen).map(ProcessHandle::isAlive).orElse(false), "the deposed controller exits");
            String log = Files.readString(Path.of(cluster.clusterProperties().getProperty(frozenOne + ".log")));
            assertTrue(log.contains("deposed"), "its log says why it stopped");
            load.awaitAcknowledged(load.acknowledged().size() + 3);
            load.stop();
            checkInvariants(load.acknowledged());
        }
    }

    /** The controller that serves now (waiting for one). */
    private String active() throws Exception {
        String[] found = new String[1];
        TestCluster.awaitTrue(() -> {
            for (String c : List.of("scheduler", "scheduler-backup")) {
                if (health(c) == HealthCheckResponse.ServingStatus.SERVING) {
                    found[0] = c;
                    return true;
                }
            }
            return false;
        }, "a controller serves");
        return found[0];
    }

    private static String other(String controller) {
        return controller.equals("scheduler") ? "scheduler-backup" : "scheduler";
    }

    /** Every acknowledged job is known and ran at most once; the long jobs still run with the same processes. */
    private void checkInvariants(List<Long> acknowledged) throws Exception {
        for (long id : acknowledged) {
            Job j = cluster.await(id, job -> job.getState() == JobState.JOB_STATE_COMPLETED && !job.getCompleting());
            assertEquals(0, j.getRestartCount(), "job " + id + " ran once");
        }
        for (var e : longJobs.entrySet()) {
            Job j = cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(e.getKey()).build()).getJob();
            assertEquals(JobState.JOB_STATE_RUNNING, j.getState(), "job " + e.getKey() + " keeps running");
            assertEquals(0, j.getRestartCount(), "job " + e.getKey() + " was not requeued");
            assertEquals(e.getValue(), processesOf(e.getKey()), "job " + e.getKey() + " keeps its processes, and no second run started");
        }
    }

    private List<Long> processesOf(long id) throws Exception {
        return Procs.ofJob(cluster, id);
    }

    private long pid(String service) throws Exception {
        return Long.parseLong(cluster.clusterProperties().getProperty(service + ".pid"));
    }

    private HealthCheckResponse.ServingStatus health(String service) throws Exception {
        ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(cluster.clusterProperties().getProperty(service + ".grpc")))
                .usePlaintext().build();
        try {
            return HealthGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance()).getStatus();
        } catch (io.grpc.StatusRuntimeException e) {
            return HealthCheckResponse.ServingStatus.UNKNOWN;
        } finally {
            ch.shutdownNow();
        }
    }

    private static void signal(String name, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor());
    }

    /** Submits short jobs with sbatch, one after another, and keeps the ids of those acknowledged. */
    private final class Submitter implements AutoCloseable {
        private final List<Long> acknowledged = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = Thread.ofPlatform().name("submitter").start(this::loop);

        private void loop() {
            while (running.get()) {
                try {
                    Shell.Result r = cluster.shell.run(cluster.work, "sbatch", "--wrap", "true");
                    Matcher m = SUBMITTED.matcher(r.out());
                    if (r.exit() == 0 && m.find()) {
                        acknowledged.add(Long.parseLong(m.group(1)));
                    }
                } catch (Exception e) {
                    // refused during the failover: not acknowledged, so not counted
                }
            }
        }

        List<Long> acknowledged() {
            return new ArrayList<>(acknowledged);
        }

        void awaitAcknowledged(int n) throws Exception {
            TestCluster.awaitTrue(() -> acknowledged.size() >= n, n + " submissions acknowledged");
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }
}
