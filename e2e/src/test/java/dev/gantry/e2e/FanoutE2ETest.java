package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-node launch on a real local cluster (issue 7, "a 3-node job's fan-out reaches all three agents"): with
 * TreeWidth=1 the controller sends one LaunchJob, to the batch host f1, which forwards it to f2, which forwards it
 * to f3; each agent verifies the credential and runs the prolog (which records the node), the batch script runs
 * on f1 only, once every node holds its part, and when it ends the other nodes' parts end too. Job steps: srun in
 * a batch script runs its tasks on the job's nodes with their output in the batch output and the highest exit
 * code as its own; squeue -s and scontrol show step list them; suspending the job stops them on every node. When the
 * batch script ends, the job keeps every node until its part there (holder, step tasks, epilog) is gone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FanoutE2ETest {

    private TestCluster cluster;
    private Path seen;
    private Path epilogs;
    private Path slowEpilog;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        seen = Files.createDirectories(tmp.resolve("seen"));
        Path prolog = tmp.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\necho \"$SLURM_JOB_ID\" > " + seen + "/\"$SLURM_JOB_ID-$SLURMD_NODENAME\"\n");
        assertTrue(prolog.toFile().setExecutable(true, false));
        epilogs = Files.createDirectories(tmp.resolve("epilogs"));
        slowEpilog = tmp.resolve("slow-epilog");
        Path epilog = tmp.resolve("epilog.sh");
        // on f3, while the file slow-epilog exists, the epilog takes 3 s; every epilog records its end
        Files.writeString(epilog, "#!/bin/sh\nif [ \"$SLURMD_NODENAME\" = f3 ] && [ -e " + slowEpilog + " ]; then sleep 3; fi\n"
                + "touch " + epilogs + "/\"$SLURM_JOB_ID-$SLURMD_NODENAME\"\n");
        assertTrue(epilog.toFile().setExecutable(true, false));
        cluster = TestCluster.start(tmp, "fanout", """
                ClusterName=fanout-e2e
                TreeWidth=1
                KillWait=2
                Prolog=%s
                Epilog=%s
                NodeName=f[1-3] CPUs=1 RealMemory=512
                PartitionName=debug Nodes=f[1-3] Default=YES MaxTime=60 State=UP
                """.formatted(prolog, epilog));
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void threeNodeJob_isLaunchedOnce_andReachesAllThreeAgentsThroughTheTree() throws Exception {
        double launchesBefore = metricOrZero("scheduler", "gantry_scheduler_launch_rpc_seconds_count{result=\"ok\"");
        double[] forwardsBefore = {forwards("agent-f1"), forwards("agent-f2"), forwards("agent-f3")};
        Path out = cluster.work.resolve("fanout-%j.out");

        long id = cluster.submit("-N3", "-o", out.toString(), "--wrap", "echo \"batch on $SLURMD_NODENAME of "
                + "$SLURM_JOB_NUM_NODES: $SLURM_JOB_NODELIST after $(ls " + seen + " | grep -c \"^$SLURM_JOB_ID-\") prologs\"");

        Job job = cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_COMPLETED, job.getState(), job.toString());
        assertEquals(Set.of(id + "-f1", id + "-f2", id + "-f3"), new TreeSet<>(List.of(seen.toFile().list()).stream().filter(f -> f.startsWith(id + "-")).toList()),
                "each of the three agents verified the credential and ran the prolog");
        assertEquals("batch on f1 of 3: f[1-3] after 3 prologs\n", Files.readString(cluster.work.resolve("fanout-" + id + ".out")),
                "the batch script ran once, on the batch host, once every node held its part");
        // the answer comes once the whole tree has launched, which may be after the batch script's exit was reported
        TestCluster.awaitTrue(() -> metricOrZero("scheduler", "gantry_scheduler_launch_rpc_seconds_count{result=\"ok\"") > launchesBefore,
                "the controller's LaunchJob was answered");
        assertEquals(forwardsBefore[0] + 1, forwards("agent-f1"), "f1 forwarded to f2");
        assertEquals(forwardsBefore[1] + 1, forwards("agent-f2"), "f2 forwarded to f3");
        assertEquals(forwardsBefore[2], forwards("agent-f3"), "f3 is the last of the chain");
        assertEquals(launchesBefore + 1, metric("scheduler", "gantry_scheduler_launch_rpc_seconds_count{result=\"ok\""),
                "the controller sent one LaunchJob, to f1");
        for (String agent : List.of("agent-f2", "agent-f3")) {
            TestCluster.awaitTrue(() -> metric(agent, "gantry_agent_jobs{state=\"running\"") == 0.0,
                    agent + " ended its part of the job once the batch script ended");
        }
    }

    @Test
    void srunInABatchScript_runsOneTaskPerNode_andItsOutputGoesToTheBatchOutput() throws Exception {
        Path script = cluster.work.resolve("steps.sh");
        Files.writeString(script, """
                #!/bin/sh
                PATH=%s:$PATH
                srun sh -c 'echo "task $SLURM_PROCID of $SLURM_NTASKS node $SLURM_NODEID on $SLURMD_NODENAME step $SLURM_JOB_ID.$SLURM_STEP_ID"' | sort
                srun -n 4 -w f3 sh -c 'exit $SLURM_PROCID'
                echo "srun exit $?"
                """.formatted(TestCluster.home().resolve("bin")));

        long id = cluster.submit("-N3", "-o", cluster.work.resolve("steps-%j.out").toString(), script.toString());

        Job job = cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_COMPLETED, job.getState(), job.toString());
        String out = Files.readString(cluster.work.resolve("steps-" + id + ".out"));
        assertTrue(out.startsWith("""
                task 0 of 3 node 0 on f1 step %1$d.0
                task 1 of 3 node 1 on f2 step %1$d.0
                task 2 of 3 node 2 on f3 step %1$d.0
                """.formatted(id)), out);
        assertTrue(out.endsWith("srun exit 3\n"), "srun exits with the highest task exit code: " + out);
        assertTrue(metric("scheduler", "gantry_scheduler_steps_started_total{partition=\"debug\"") >= 2.0);
    }

    @Test
    void stepsAreListed_andStayStoppedWhileTheirJobIsSuspended() throws Exception {
        Path script = cluster.work.resolve("ticker.sh");
        Files.writeString(script, """
                #!/bin/sh
                PATH=%s:$PATH
                srun -N2 -J ticker sh -c 'i=0; while :; do i=$((i+1)); echo $i > tick-$SLURM_JOB_ID-$SLURM_NODEID; sleep 0.05; done'
                """.formatted(TestCluster.home().resolve("bin")));
        long id = cluster.submit("-N2", "-o", "/dev/null", script.toString());
        Path tick0 = cluster.work.resolve("tick-" + id + "-0");
        Path tick1 = cluster.work.resolve("tick-" + id + "-1");
        TestCluster.awaitTrue(() -> Files.exists(tick0) && Files.exists(tick1), "the step's two tasks run");

        Shell.Result steps = cluster.shell.run(cluster.work, "squeue", "-s");
        assertEquals(0, steps.exit(), steps.toString());
        assertTrue(steps.out().startsWith("         STEPID     NAME PARTITION     USER      TIME NODELIST\n"), steps.out());
        assertTrue(steps.out().matches("(?s).*\\s" + id + "\\.batch\\s+batch\\s+debug\\s.*\\sf1\n.*"), steps.out());
        assertTrue(steps.out().matches("(?s).*\\s" + id + "\\.0\\s+ticker\\s+debug\\s.*\\sf\\[1-2\\]\n.*"), steps.out());
        Shell.Result show = cluster.shell.run(cluster.work, "scontrol", "show", "step", id + ".0");
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().startsWith("StepId=" + id + ".0 "), show.out());
        assertTrue(show.out().contains("State=RUNNING Partition=debug NodeList=f[1-2]"), show.out());
        assertTrue(show.out().contains("Nodes=2 CPUs=2 Tasks=2 Name=ticker"), show.out());

        Shell.Result suspend = cluster.shell.run(cluster.work, "scontrol", "suspend", Long.toString(id));
        assertEquals(0, suspend.exit(), suspend.toString());
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_SUSPENDED);
        TestCluster.awaitTrue(() -> Procs.allStopped(Procs.ofStep(cluster, id, "0")), "every process of step " + id + ".0, on both nodes, is stopped");
        // A task counts as stopped (or frozen) just before it leaves the CPU, and the CPU time since its last tick is
        // charged when it does: let that settle before the baseline.
        Thread.sleep(200);
        List<Long> stepPids = Procs.ofStep(cluster, id, "0");
        long ticks0 = Procs.cpuTicks(stepPids);
        String seen0 = Files.readString(tick0) + Files.readString(tick1);
        Thread.sleep(1500);
        assertEquals(ticks0, Procs.cpuTicks(stepPids), "the step used no CPU while its job was suspended");
        assertEquals(seen0, Files.readString(tick0) + Files.readString(tick1), "neither task advanced while suspended");

        Shell.Result resume = cluster.shell.run(cluster.work, "scontrol", "resume", Long.toString(id));
        assertEquals(0, resume.exit(), resume.toString());
        TestCluster.awaitTrue(() -> !Files.readString(tick1).equals(seen0.substring(seen0.indexOf('\n') + 1)), "the tasks run again after resume");

        Shell.Result cancel = cluster.shell.run(cluster.work, "scancel", Long.toString(id));
        assertEquals(0, cancel.exit(), cancel.toString());
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
        assertEquals(List.of(), Procs.ofJob(cluster, id), "no process of the job, its step's on both nodes included, is left once it is over");
    }

    @Test
    void whenTheBatchScriptEnds_aNodeStaysAllocated_untilItsHolderStepAndEpilogAreGone() throws Exception {
        Path script = cluster.work.resolve("short-batch.sh");
        Files.writeString(script, """
                #!/bin/sh
                PATH=%s:$PATH
                srun -N1 -w f3 sh -c 'trap "" TERM; touch step-$SLURM_JOB_ID; while :; do sleep 1; done' &
                while [ ! -e step-$SLURM_JOB_ID ]; do sleep 0.1; done
                exit 0
                """.formatted(TestCluster.home().resolve("bin")));
        Files.writeString(slowEpilog, "");
        try {
            long id = cluster.submit("-N3", "-o", "/dev/null", script.toString());
            TestCluster.awaitTrue(() -> Files.exists(cluster.work.resolve("step-" + id)), "the step runs on f3");
            Path f3Epilog = epilogs.resolve(id + "-f3");
            // from now until the job is over, f3 may be free only once its epilog has run (after its last process)
            Job job;
            while (true) {
                job = cluster.controller.getJob(dev.gantry.api.v1.GetJobRequest.newBuilder().setJobId(id).build()).getJob();
                // allocation first: an epilog seen done after f3 was seen free ran before it was freed (the other
                // order could see the epilog not yet done, then f3 freed by it meanwhile)
                int f3Alloc = allocCpus("f3");
                boolean epilogDone = Files.exists(f3Epilog);
                assertTrue(f3Alloc == 1 || epilogDone, "f3 was released before its part of job " + id + " was gone: " + job);
                if (job.getState() == JobState.JOB_STATE_COMPLETED && !job.getCompleting() && f3Alloc == 0) {
                    break;
                }
                assertTrue(job.getState().getNumber() <= JobState.JOB_STATE_COMPLETED_VALUE, job.toString());
                Thread.sleep(50);
            }
            assertTrue(Files.exists(f3Epilog), "f3 ran its epilog before the job was over");
            assertEquals(List.of(), Procs.ofJob(cluster, id), "no process of the job (holder, step task) is left on any node");
        } finally {
            Files.deleteIfExists(slowEpilog);
        }
    }

    @Test
    void scancelSignal_reachesTheBatchScriptAndTheStepTasksOnEveryNode_andTheJobGoesOn() throws Exception {
        // WINCH: ignored by default, so the srun client (a JVM) and the holders carry on; the shells trap it
        Path script = cluster.work.resolve("signalled.sh");
        Files.writeString(script, """
                #!/bin/sh
                PATH=%s:$PATH
                trap 'touch sig-$SLURM_JOB_ID-batch' WINCH
                srun -N3 sh -c 'trap "touch sig-$SLURM_JOB_ID-$SLURMD_NODENAME; exit 0" WINCH; touch ready-$SLURM_JOB_ID-$SLURMD_NODENAME; while :; do sleep 0.2; done' &
                while [ ! -e sig-$SLURM_JOB_ID-batch ]; do sleep 0.2; done
                wait
                """.formatted(TestCluster.home().resolve("bin")));
        long id = cluster.submit("-N3", "-o", "/dev/null", script.toString());
        for (String node : List.of("f1", "f2", "f3")) {
            TestCluster.awaitTrue(() -> Files.exists(cluster.work.resolve("ready-" + id + "-" + node)), "the step's task runs on " + node);
        }

        Shell.Result signal = cluster.shell.run(cluster.work, "scancel", "--signal=WINCH", Long.toString(id));
        assertEquals(0, signal.exit(), signal.toString());
        for (String who : List.of("batch", "f1", "f2", "f3")) {
            TestCluster.awaitTrue(() -> Files.exists(cluster.work.resolve("sig-" + id + "-" + who)), who + " got the signal");
        }
        Job job = cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_COMPLETED, job.getState(), "the signal did not cancel the job: " + job);
    }

    private int allocCpus(String node) {
        return cluster.controller.listNodes(dev.gantry.api.v1.ListNodesRequest.getDefaultInstance()).getNodesList().stream()
                .filter(n -> n.getName().equals(node)).findFirst().orElseThrow().getAllocCpus();
    }

    private double forwards(String agent) throws Exception {
        return metric(agent, "gantry_agent_launch_forwards_total{result=\"ok\"");
    }

    /** As {@link #metric}, 0 when the sample is not there yet (a timer appears with its first use). */
    private double metricOrZero(String service, String prefix) throws Exception {
        try {
            return metric(service, prefix);
        } catch (AssertionError e) {
            return 0.0;
        }
    }

    /** The value of the first sample of {@code service}'s /prometheus whose line starts with {@code prefix}. */
    private double metric(String service, String prefix) throws Exception {
        int port = Integer.parseInt(cluster.clusterProperties().getProperty(service + ".http"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body().lines().filter(l -> l.startsWith(prefix)).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError(service + " has no sample " + prefix + ":\n" + r.body()));
    }
}
