package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent in a real local cluster: a job over its memory ends OUT_OF_MEMORY, CR_Core binds a job to its
 * allocated core, and restarting an agent leaves its running job running to completion. Cgroup-dependent checks
 * hold for whatever containment the agents chose (their log says which).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeAgentE2ETest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);

    private Path tmp;
    private Path work;
    private Path runDir;
    private Shell shell;
    private ManagedChannel channel;
    private ControllerGrpc.ControllerBlockingStub controller;

    @BeforeAll
    void up(@TempDir Path tempDir) throws Exception {
        tmp = tempDir;
        // GANTRY_E2E_HOME: run against another tree's bin/ and built jars (e.g. a copy, while this one is rebuilt)
        String homeDir = System.getenv().getOrDefault("GANTRY_E2E_HOME", System.getProperty("gantry.home", ".."));
        Path home = Path.of(homeDir).toAbsolutePath().normalize();
        work = Files.createDirectories(tmp.resolve("work"));
        runDir = tmp.resolve("run");
        Path conf = tmp.resolve("agent.conf");
        Files.writeString(conf, """
                ClusterName=agent-e2e
                KillWait=5
                SelectTypeParameters=CR_Core_Memory
                NodeName=a[1-2] CPUs=2 RealMemory=2048
                PartitionName=debug Nodes=a[1-2] Default=YES MaxTime=60 State=UP
                """);
        shell = new Shell(home, Map.of("GANTRY_RUN_DIR", runDir.toString(), "GANTRY_CONTROLLER", ""));
        Shell.Result up = shell.run(tmp, "gantry", "up", "--config", conf.toString(), "--run-dir", runDir.toString());
        assertEquals(0, up.exit(), up.toString());
        channel = ManagedChannelBuilder.forTarget(Files.readString(runDir.resolve("controller.addr")).trim()).usePlaintext().build();
        controller = ControllerGrpc.newBlockingStub(channel);
    }

    @AfterAll
    void down() throws Exception {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (shell != null) {
            shell.run(tmp, "gantry", "down", "--run-dir", runDir.toString());
        }
    }

    @Test
    void jobOverItsMemory_endsOutOfMemory_whereAMemoryCgroupIsWritable() throws Exception {
        String log = Files.readString(runDir.resolve("logs").resolve("agent-a1.log"));
        org.junit.jupiter.api.Assumptions.assumeTrue(log.contains("containment: cgroup") && !log.contains("memory is not limited"),
                "the agents have no memory cgroup here");

        long id = submit("--mem=32M", "-o", "/dev/null", "--wrap", "x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo survived");

        Job job = await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_OUT_OF_MEMORY, job.getState(), job.toString());
        Shell.Result show = shell.run(work, "scontrol", "show", "job", Long.toString(id));
        assertTrue(show.out().contains("JobState=OUT_OF_MEMORY") && show.out().contains("Reason=OutOfMemory"), show.out());
    }

    @Test
    void crCoreJob_isBoundToItsCore() throws Exception {
        long id = submit("-n", "1", "--mem=1M", "-o", work.resolve("cores-%j.out").toString(), "--wrap", "grep Cpus_allowed_list /proc/self/status");

        await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        String out = Files.readString(work.resolve("cores-" + id + ".out"));
        assertTrue(out.matches("Cpus_allowed_list:\\t[0-9]+\\n"), "bound to one CPU: " + out);
    }

    @Test
    void restartingAnAgent_leavesItsJobRunning_andTheJobCompletes() throws Exception {
        Path flag = work.resolve("restart-go");
        long id = submit("--mem=1M", "-o", work.resolve("restart-%j.out").toString(),
                "--wrap", "echo started; while [ ! -e " + flag + " ]; do sleep 0.1; done; echo finished");
        String node = await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING).getNodeList();
        awaitFile(work.resolve("restart-" + id + ".out"), "started");

        Shell.Result restart = shell.run(tmp, "gantry", "restart", "agent-" + node, "--run-dir", runDir.toString());
        assertEquals(0, restart.exit(), restart.toString());
        awaitFile(runDir.resolve("logs").resolve("agent-" + node + ".log"), "job " + id + ": re-adopted");
        assertEquals(JobState.JOB_STATE_RUNNING, controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getState());

        Files.createFile(flag);
        Job done = await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals(0, done.getExitCode());
        assertTrue(Files.readString(work.resolve("restart-" + id + ".out")).contains("finished"));
    }

    private long submit(String... args) throws Exception {
        Shell.Result r = shell.run(work, "sbatch", args);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    private Job await(long id, Predicate<Job> condition) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        Job last = null;
        while (Instant.now().isBefore(deadline)) {
            last = controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        fail("job " + id + " did not reach the expected state; last seen: " + last);
        return null;
    }

    private static void awaitFile(Path file, String text) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(100);
        }
        fail("'" + text + "' never appeared in " + file);
    }
}
