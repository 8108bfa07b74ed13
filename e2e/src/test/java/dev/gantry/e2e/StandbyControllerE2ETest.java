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
 * kill -9 of the active one, then SIGSTOP of the new active one past its lease and SIGCONT. Each time the standby takes
 * over, every acknowledged submission is there, every running job keeps its processes, and no job runs twice; the
 * frozen one, resumed, is deposed and exits. Prints the measured failover times (docs/reliability.md).
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
    void killNineOfTheActiveController_theStandbyTakesOver_losingNoAcknowledgedSubmission_andKeepingEveryRunningJob() throws Exception {
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, health("scheduler"));
        assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, health("scheduler-backup"), "the standby is live, not serving");

        try (Submitter load = new Submitter()) {
            load.awaitAcknowledged(3);
            long pid = pid("scheduler");
            long killed = System.nanoTime();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            TestCluster.awaitTrue(() -> health("scheduler-backup") == HealthCheckResponse.ServingStatus.SERVING, "the standby serves");
            long serving = System.nanoTime();
            long firstAfter = cluster.submit("--wrap", "true");
            long accepted = System.nanoTime();
            System.out.printf("FAILOVER kill -9: standby SERVING after %d ms, a submission accepted after %d ms%n",
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
        // the killed controller comes back as the standby (its supervisor would restart it: here gantry restart)
        Shell.Result restart = cluster.shell.run(cluster.tmp, "gantry", "restart", "scheduler", "--run-dir", cluster.runDir.toString());
        assertEquals(0, restart.exit(), restart.toString());
        TestCluster.awaitTrue(() -> health("scheduler") == HealthCheckResponse.ServingStatus.NOT_SERVING, "ctl0 is the standby now");

        try (Submitter load = new Submitter()) {
            load.awaitAcknowledged(3);
            long frozen = pid("scheduler-backup");
            long stopped = System.nanoTime();
            signal("STOP", frozen);
            try {
                TestCluster.awaitTrue(() -> health("scheduler") == HealthCheckResponse.ServingStatus.SERVING, "ctl0 takes over");
                long tookOver = System.nanoTime();
                long during = cluster.submit("--wrap", "true");
                System.out.printf("FAILOVER SIGSTOP: standby SERVING after %d ms, a submission accepted after %d ms%n",
                        (tookOver - stopped) / 1_000_000, (System.nanoTime() - stopped) / 1_000_000);
                cluster.await(during, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
            } finally {
                signal("CONT", frozen);
            }
            // resumed, it finds its lease gone and exits at once: it launches and writes nothing
            TestCluster.awaitTrue(() -> !ProcessHandle.of(frozen).map(ProcessHandle::isAlive).orElse(false), "the deposed controller exits");
            String log = Files.readString(Path.of(cluster.clusterProperties().getProperty("scheduler-backup.log")));
            assertTrue(log.contains("deposed"), "its log says why it stopped");
            load.awaitAcknowledged(load.acknowledged().size() + 3);
            load.stop();
            checkInvariants(load.acknowledged());
        }
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

    /**
     * The job's processes in this cluster: those with its SLURM_JOB_ID whose working directory is this test's (other
     * clusters on the same host, other engineers' tests, have jobs of the same ids).
     */
    private List<Long> processesOf(long id) throws Exception {
        Path work = cluster.work.toRealPath();
        List<Long> own = new ArrayList<>();
        for (long pid : Procs.ofJob(id)) {
            try {
                if (Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")).startsWith(work)) {
                    own.add(pid);
                }
            } catch (java.io.IOException e) {
                // gone meanwhile
            }
        }
        return own;
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
