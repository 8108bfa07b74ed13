package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Issue 17, "Database loss handled": the embedded PostgreSQL of a local cluster killed with SIGKILL under a small load
 * of submissions and short running jobs. scheduler-svc notices (health NOT_SERVING on both ports, sbatch refused with
 * "database unavailable", squeue still answering), restarts the server by itself, and afterwards every acknowledged
 * job is there, every job that ran is finished (none RUNNING without its process) and none ran twice (each job's
 * script appends a line to a file of its own). Prints the time to notice and to recover ("MEASURE …").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseLossE2ETest {

    private TestCluster cluster;
    private Path runs;
    private ManagedChannel publicChannel;
    private ManagedChannel internalChannel;
    private final List<Long> acknowledged = new ArrayList<>();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "dbloss", """
                ClusterName=dbloss
                KillWait=5
                NodeName=n[1-2] CPUs=4 RealMemory=2048
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                """);
        runs = Files.createDirectories(cluster.work.resolve("runs"));
        publicChannel = ManagedChannelBuilder.forTarget(Files.readString(cluster.runDir.resolve("controller.addr")).trim())
                .usePlaintext().build();
        internalChannel = cluster.internalChannel("scheduler", Peer.SELECT, Peer.SCHEDULER);
    }

    @AfterAll
    void down() throws Exception {
        if (publicChannel != null) {
            publicChannel.shutdownNow();
        }
        if (internalChannel != null) {
            internalChannel.shutdownNow();
        }
        if (cluster != null) {
            cluster.copyLogs(Path.of("target", "e2e-logs", "DatabaseLossE2ETest"));
            cluster.close();
        }
    }

    /** A job that appends one line per run to its own file, then sleeps {@code seconds}. */
    private long submitJob(double seconds) throws Exception {
        long id = cluster.submit("-o", "/dev/null", "--wrap", "echo run >> " + runs + "/$SLURM_JOB_ID; sleep " + seconds);
        acknowledged.add(id);
        return id;
    }

    @Test
    @Order(1)
    void aKilledDatabase_isNoticedInSeconds_refusesSubmissions_andComesBackByItself() throws Exception {
        // load: jobs running (some ending while the database is away) and pending ones behind them
        for (int i = 0; i < 12; i++) {
            submitJob(3 + i % 4);
        }
        awaitRunning();

        long pid = postmasterPid();
        long killed = System.nanoTime();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // SIGKILL
        long noticed = awaitHealth(ServingStatus.NOT_SERVING); // the outage may last about a second: polled closely
        long serving = awaitHealth(ServingStatus.SERVING);
        long accepted = submitJob(1); // the submission after recovery: sbatch exits 0
        long acceptedAt = System.nanoTime();
        System.out.printf("MEASURE kill -9 of the embedded postgres: NOT_SERVING after %d ms, SERVING after %d ms, "
                + "a submission accepted after %d ms%n", ms(noticed - killed), ms(serving - killed), ms(acceptedAt - killed));
        assertNotEquals(pid, postmasterPid(), "a new server");
        assertTrue(metric("gantry_database_outages_total") >= 1);
        assertTrue(metric("gantry_database_restarts_total") >= 1);
        assertEquals(1.0, metric("gantry_database_up"));
        cluster.await(accepted, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
    }

    @Test
    @Order(2)
    void whileTheDataIsGone_sbatchFailsNamingTheDatabase_squeueAnswers_healthSaysNotServingOnBothPorts() throws Exception {
        for (int i = 0; i < 8; i++) {
            submitJob(2 + i % 3);
        }
        awaitRunning();
        // the data directory goes away (a lost volume) and the server with it: no restart can succeed until it is back
        Path data = cluster.runDir.resolve("state/pgdata");
        Path away = cluster.runDir.resolve("state/pgdata.lost");
        long pid = postmasterPid();
        Files.move(data, away);
        long killed = System.nanoTime();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        TestCluster.awaitTrue(() -> health(publicChannel) == ServingStatus.NOT_SERVING, "public health says NOT_SERVING");
        long noticed = System.nanoTime();
        assertEquals(ServingStatus.NOT_SERVING, health(internalChannel), "the internal port's health too");

        Shell.Result refused = cluster.shell.run(cluster.work, "sbatch", "-o", "/dev/null", "--wrap", "true");
        assertNotEquals(0, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("database unavailable: "), refused.toString());
        Shell.Result squeue = cluster.shell.run(cluster.work, "squeue");
        assertEquals(0, squeue.exit(), "queries answer from memory: " + squeue);
        assertEquals(0.0, metric("gantry_database_up"));
        // jobs end meanwhile: their exit reports are refused (not acknowledged) and re-sent by the agents later
        Thread.sleep(4000);

        Files.move(away, data);
        long restored = System.nanoTime();
        TestCluster.awaitTrue(() -> health(publicChannel) == ServingStatus.SERVING && health(internalChannel) == ServingStatus.SERVING,
                "health says SERVING again on both ports");
        long serving = System.nanoTime();
        submitJob(1);
        System.out.printf("MEASURE data directory lost: NOT_SERVING after %d ms; once restored, SERVING after %d ms, "
                + "a submission accepted after %d ms%n", ms(noticed - killed), ms(serving - restored), ms(System.nanoTime() - restored));
    }

    @Test
    @Order(3)
    void aControllerKilledWhileTheDatabaseIsDown_restartsOnWhatWasDurable_andLearnsTheExitsItMissed() throws Exception {
        List<Long> batch = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            batch.add(submitJob(6)); // 6 jobs of one CPU fit the 8 CPUs at once
        }
        TestCluster.awaitTrue(() -> batch.stream().allMatch(id -> Files.exists(runs.resolve(Long.toString(id)))),
                "every job started");
        Path data = cluster.runDir.resolve("state/pgdata");
        Path away = cluster.runDir.resolve("state/pgdata.lost");
        long pid = postmasterPid();
        Files.move(data, away);
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        awaitHealth(ServingStatus.NOT_SERVING);
        // the jobs end while the database is away: their exits are refused, so still RUNNING in the database
        TestCluster.awaitTrue(() -> {
            for (long id : batch) {
                if (!Files.exists(runs.resolve(Long.toString(id))) || !Procs.ofJob(cluster, id).isEmpty()) {
                    return false;
                }
            }
            return true;
        }, "the jobs' processes ended");
        long scheduler = Long.parseLong(cluster.clusterProperties().getProperty("scheduler.pid"));
        ProcessHandle.of(scheduler).orElseThrow().destroyForcibly();
        TestCluster.awaitTrue(() -> ProcessHandle.of(scheduler).map(p -> !p.isAlive()).orElse(true), "scheduler-svc is gone");
        Files.move(away, data);
        Shell.Result restart = cluster.shell.run(cluster.tmp, "gantry", "restart", "scheduler", "--run-dir",
                cluster.runDir.toString());
        assertEquals(0, restart.exit(), restart.toString());
        for (long id : batch) {
            cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        }
    }

    @Test
    @Order(4)
    void afterRecovery_everyAcknowledgedJobIsThere_finished_andRanOnce() throws Exception {
        for (long id : acknowledged) {
            Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
            assertEquals(0, job.getRestartCount(), "job " + id + " was not requeued");
            List<String> lines = Files.readAllLines(runs.resolve(Long.toString(id)), StandardCharsets.UTF_8);
            assertEquals(List.of("run"), lines, "job " + id + " ran exactly once");
        }
        for (long id : acknowledged) {
            assertEquals(List.of(), Procs.ofJob(cluster, id), "no process of job " + id + " left");
        }
    }

    /** Waits until a job runs (submissions are slow on a busy machine: the earlier jobs may be over already). */
    private void awaitRunning() throws Exception {
        TestCluster.awaitTrue(() -> cluster.controller.listJobs(dev.gantry.api.v1.ListJobsRequest.getDefaultInstance())
                .getJobsList().stream().anyMatch(j -> j.getState() == JobState.JOB_STATE_RUNNING), "a job runs");
    }

    /** Polls the public port's health every 10 ms until it says {@code status}; returns System.nanoTime() then. */
    private long awaitHealth(ServingStatus status) throws Exception {
        long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (health(publicChannel) == status) {
                return System.nanoTime();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("health did not say " + status + " within " + TestCluster.WAIT);
    }

    private long postmasterPid() throws Exception {
        return Long.parseLong(Files.readAllLines(cluster.runDir.resolve("state/pgdata/postmaster.pid")).get(0).strip());
    }

    private static ServingStatus health(ManagedChannel channel) {
        return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance()).getStatus();
    }

    /** A value of scheduler-svc's Prometheus endpoint. */
    private double metric(String name) throws Exception {
        int port = Integer.parseInt(cluster.clusterProperties().getProperty("scheduler.env.GANTRY_HTTP_PORT"));
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        return body.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
