package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.GangGrpc;
import dev.gantry.api.v1.GetGangStateRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walking skeleton end to end: bin/gantry starts every service as a real process on loopback ports, the
 * bin/ commands talk to them over real gRPC, and jobs run as real processes. One cluster serves all steps,
 * in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterE2ETest {

    private TestCluster cluster;
    private Path work;
    private Shell shell;
    private long completedJob;
    private long failedJob;
    private long cancelledJob;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "e2e", """
                ClusterName=e2e
                KillWait=5
                NodeName=n[1-4] CPUs=2 RealMemory=2048
                PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
                PartitionName=parked Nodes=n[1-4] MaxTime=UNLIMITED State=DOWN
                """);
        assertTrue(cluster.upResult.out().contains("is up: 4 node(s)"), cluster.upResult.out());
        work = cluster.work;
        shell = cluster.shell;
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aBatchScriptRunsToCompletion_withItsOutputFileAndSlurmEnvironment() throws Exception {
        Path script = work.resolve("hello.sh");
        Files.writeString(script, """
                #!/bin/bash
                #SBATCH -J hello
                echo "hello from job $SLURM_JOB_ID on $SLURM_JOB_NODELIST ($SLURM_NNODES node, $SLURM_CPUS_ON_NODE cpus)"
                echo "partition=$SLURM_JOB_PARTITION submitdir=$SLURM_SUBMIT_DIR gantry=$GANTRY_JOB_ID"
                """);
        long id = cluster.submit(work, script.toString());
        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals(0, job.getExitCode());
        assertEquals("hello", job.getSpec().getName().isEmpty() ? job.getName() : job.getSpec().getName());
        String out = Files.readString(work.resolve("slurm-" + id + ".out"), StandardCharsets.UTF_8);
        assertTrue(out.contains("hello from job " + id + " on " + job.getNodeList() + " (1 node, "), out);
        assertTrue(out.contains("partition=debug submitdir=" + work + " gantry=" + id), out);
        Shell.Result show = shell.run(work, "scontrol", "show", "job", Long.toString(id));
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().contains("JobState=COMPLETED"), show.out());
        assertTrue(show.out().contains("ExitCode=0:0"), show.out());
        completedJob = id;
    }

    @Test
    @Order(2)
    void aFailingScriptEndsFailed_withItsExitCode() throws Exception {
        long id = cluster.submit(work, "--wrap", "echo about to fail; exit 3", "-o", work.resolve("fail-%j.log").toString());
        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_FAILED && !j.getCompleting());
        assertEquals(3, job.getExitCode());
        assertTrue(Files.readString(work.resolve("fail-" + id + ".log")).contains("about to fail"));
        failedJob = id;
    }

    @Test
    @Order(3)
    void badInputIsRejectedAtSubmit_namingTheFieldAndTheLimit_andNothingIsStored() throws Exception {
        long before = cluster.submit(work, "--wrap", "true", "-p", "parked");
        String[][] cases = {
            {"-p", "nope"}, {"partitions", "nope"},
            {"-N", "0"}, {"min_nodes", "at least 1"},
            {"-N", "9"}, {"min_nodes", "9 nodes requested, partition debug has 4"},
            {"-t", "2:00:00"}, {"time_limit_seconds", "MaxTime"},
            {"-n", "-1"}, {"ntasks", ""},
        };
        for (int i = 0; i < cases.length; i += 2) {
            Shell.Result r = shell.run(work, "sbatch", cases[i][0], cases[i][1], "--wrap", "true");
            assertNotEquals(0, r.exit(), "sbatch " + String.join(" ", cases[i]) + " must fail\n" + r);
            assertTrue(r.err().contains(cases[i + 1][0]) && r.err().contains(cases[i + 1][1]),
                    "sbatch " + String.join(" ", cases[i]) + " must name " + String.join(" / ", cases[i + 1]) + "\n" + r);
            assertTrue(r.err().startsWith("sbatch: "), r.err());
        }
        long after = cluster.submit(work, "--wrap", "true", "-p", "parked");
        assertEquals(before + 1, after, "no rejected submission was stored or used a job id");
    }

    @Test
    @Order(4)
    void scancelOfARunningJob_killsItsProcesses() throws Exception {
        long id = cluster.submit(work, "--wrap", "sleep 600");
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        TestCluster.awaitTrue(() -> !Procs.ofJob(cluster, id).isEmpty(), "the job's processes appear");
        Shell.Result cancel = shell.run(work, "scancel", Long.toString(id));
        assertEquals(0, cancel.exit(), cancel.toString());
        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_CANCELLED, job.getState());
        assertEquals(List.of(), Procs.ofJob(cluster, id), "no process of the cancelled job is left");
        cancelledJob = id;
    }

    @Test
    @Order(5)
    void aRestartOfTheSchedulerKeepsPendingAndFinishedJobs() throws Exception {
        long pending = cluster.submit(work, "--wrap", "true", "-p", "parked");
        cluster.await(pending, j -> j.getState() == JobState.JOB_STATE_PENDING);
        Shell.Result restart = shell.run(cluster.tmp, "gantry", "restart", "scheduler", "--run-dir", cluster.runDir.toString());
        assertEquals(0, restart.exit(), restart.toString());
        assertEquals(JobState.JOB_STATE_PENDING, cluster.await(pending, j -> true).getState());
        assertEquals(JobState.JOB_STATE_COMPLETED, cluster.await(completedJob, j -> true).getState());
        Job failed = cluster.await(failedJob, j -> true);
        assertEquals(JobState.JOB_STATE_FAILED, failed.getState());
        assertEquals(3, failed.getExitCode());
        assertEquals(JobState.JOB_STATE_CANCELLED, cluster.await(cancelledJob, j -> true).getState());
        // The cluster still works: agents re-register with the new controller and a new job runs.
        long next = cluster.submit(work, "--wrap", "echo after restart");
        assertTrue(next > pending, "job ids keep increasing across a restart");
        cluster.await(next, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
    }

    @Test
    @Order(6)
    void gangSvcFollowsTheAllocationEvents() throws Exception {
        // GetGangState is on gang-svc's internal port, for peers of the cluster (here: as scheduler-svc)
        ManagedChannel gang = cluster.internalChannel("gang", Peer.SCHEDULER, Peer.GANG);
        try {
            TestCluster.awaitTrue(() -> GangGrpc.newBlockingStub(gang).getGangState(GetGangStateRequest.getDefaultInstance())
                    .getEventsApplied() > 0, "gang-svc applied allocation events");
        } finally {
            gang.shutdownNow();
        }
    }

    @Test
    @Order(7)
    void everyServiceServesReflection_v1AndV1alpha_listingItsServices() throws Exception {
        java.util.Properties props = cluster.clusterProperties();
        for (String service : List.of("scheduler", "select", "gang", "agent-n1")) {
            int port = Integer.parseInt(props.getProperty(service + ".grpc"));
            ManagedChannel ch = io.grpc.ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
            try {
                List<String> v1 = reflectedServices(ch, io.grpc.reflection.v1.ServerReflectionGrpc.newStub(ch)::serverReflectionInfo,
                        io.grpc.reflection.v1.ServerReflectionRequest.newBuilder().setListServices("*").build(),
                        r -> r.getListServicesResponse().getServiceList().stream().map(x -> x.getName()).toList());
                @SuppressWarnings("deprecation")
                List<String> v1alpha = reflectedServices(ch, io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(ch)::serverReflectionInfo,
                        io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder().setListServices("*").build(),
                        r -> r.getListServicesResponse().getServiceList().stream().map(x -> x.getName()).toList());
                assertTrue(v1.contains("grpc.health.v1.Health"), service + " lists (v1): " + v1);
                assertTrue(v1.contains("grpc.reflection.v1alpha.ServerReflection") && v1.contains("grpc.reflection.v1.ServerReflection"),
                        service + " lists (v1): " + v1);
                assertEquals(new java.util.TreeSet<>(v1), new java.util.TreeSet<>(v1alpha), service + ": v1alpha lists what v1 lists");
            } finally {
                ch.shutdownNow();
            }
        }
    }

    /** The services one reflection stream lists: one request, its first answer. */
    private static <Q, R> List<String> reflectedServices(ManagedChannel ch,
            java.util.function.Function<io.grpc.stub.StreamObserver<R>, io.grpc.stub.StreamObserver<Q>> open, Q request,
            java.util.function.Function<R, List<String>> names) throws Exception {
        java.util.concurrent.CompletableFuture<List<String>> answer = new java.util.concurrent.CompletableFuture<>();
        io.grpc.stub.StreamObserver<Q> out = open.apply(new io.grpc.stub.StreamObserver<R>() {
            @Override
            public void onNext(R r) {
                answer.complete(names.apply(r));
            }

            @Override
            public void onError(Throwable t) {
                answer.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                answer.completeExceptionally(new IllegalStateException("no answer"));
            }
        });
        out.onNext(request);
        try {
            return answer.get(20, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            out.onCompleted();
        }
    }
}
