package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrivateData=jobs,usage on a real local cluster run by root, tried by two unprivileged local users with the Slurm
 * commands (authenticated through the cluster's local authenticator) and, for what the commands do not print (a
 * job's environment), with the gRPC API and a token from {@code scontrol token}. Each user submits, watches and
 * cancels their own jobs and sees only what PrivateData allows; neither reads the other's script or environment nor
 * cancels the other's jobs. The jobs wait in a DOWN partition, so nothing needs to run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrivateDataE2ETest {

    private static final Pattern SUBMITTED = Pattern.compile("Submitted batch job (\\d+)");
    private static final Pattern JWT = Pattern.compile("^SLURM_JWT=(\\S+)$", Pattern.MULTILINE);
    private static final String SECRET = "s3cr3t-" + Long.toHexString(new SecureRandom().nextLong());

    /** An unprivileged local user and the directory their commands run in. */
    private record User(LocalUsers.User account, Path home) {
        String name() {
            return account.name();
        }
    }

    private TestCluster cluster;
    private User alice;
    private User bob;
    private Path script;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        run(List.of("chmod", "755", tmp.toString()));
        TestCluster.writeJwtKey(tmp);
        alice = user("gantry-pd1", tmp);
        bob = user("gantry-pd2", tmp);
        cluster = TestCluster.start(tmp, "private", ("""
                ClusterName=e2e-private
                PrivateData=jobs,usage
                AuthAltTypes=auth/jwt
                AuthAltParameters=jwt_key=%s
                PriorityWeightAge=1000
                NodeName=p[1-2] CPUs=1 RealMemory=1024
                PartitionName=debug Nodes=p[1-2] Default=YES MaxTime=60 State=UP
                PartitionName=closed Nodes=p[1-2] MaxTime=60 State=DOWN
                Account=science Users=gantry-pd1,gantry-pd2
                """).formatted(tmp.resolve("jwt_hs256.key")));
        run(List.of("chmod", "755", cluster.runDir.toString()));
        script = tmp.resolve("job.sh");
        Files.writeString(script, "#!/bin/sh\n# api_key=" + SECRET + "\nsleep 600\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    // ---------------------------------------------------------------- users and their commands

    private static User user(String name, Path tmp) throws Exception {
        LocalUsers.User user = LocalUsers.ensure(name);
        Path home = Files.createDirectories(tmp.resolve("home-" + name));
        run(List.of("chown", user.uid() + ":" + user.gid(), home.toString()));
        return new User(user, home);
    }

    /** A Slurm command of this tree run by {@code user} in its home, with {@code env} added. */
    private Shell.Result as(User user, Map<String, String> env, String command, String... args) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(Map.of("GANTRY_RUN_DIR", cluster.runDir.toString(), "HOME", user.home().toString()));
        all.putAll(env);
        List<String> cmd = new ArrayList<>(List.of(TestCluster.home().resolve("bin").resolve(command).toString()));
        cmd.addAll(List.of(args));
        return LocalUsers.as(user.account(), user.home(), all, cmd.toArray(String[]::new));
    }

    private Shell.Result as(User user, String command, String... args) throws Exception {
        return as(user, Map.of(), command, args);
    }

    private static Shell.Result run(List<String> cmd) throws Exception {
        return LocalUsers.run(cmd);
    }

    /** sbatch by {@code user} into the DOWN partition (it stays pending), with a secret in its environment. */
    private long submit(User user) throws Exception {
        Shell.Result r = as(user, Map.of("MY_TOKEN", SECRET), "sbatch", "-p", "closed", script.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    private static List<Long> ids(String squeueOutput) {
        return squeueOutput.lines().skip(1).map(l -> Long.parseLong(l.trim().split("\\s+")[0])).toList();
    }

    /** The API as {@code user}, with a token that user got from scontrol token. */
    private ControllerGrpc.ControllerBlockingStub api(User user, List<ManagedChannel> opened) throws Exception {
        Shell.Result token = as(user, "scontrol", "token", "lifespan=600");
        Matcher m = JWT.matcher(token.out());
        assertTrue(m.find(), token.toString());
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + m.group(1));
        ManagedChannel channel = ManagedChannelBuilder.forTarget(Files.readString(cluster.runDir.resolve("controller.addr")).trim())
                .usePlaintext().build();
        opened.add(channel);
        return ControllerGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    // ---------------------------------------------------------------- the rules

    @Test
    void eachUser_seesOnlyTheirOwnJobs_inSqueueAndScontrolShowJob() throws Exception {
        long alices = submit(alice);
        long bobs = submit(bob);

        Shell.Result aliceQueue = as(alice, "squeue");
        Shell.Result bobQueue = as(bob, "squeue");
        assertEquals(0, aliceQueue.exit(), aliceQueue.toString());
        assertTrue(ids(aliceQueue.out()).contains(alices), aliceQueue.toString());
        assertFalse(ids(aliceQueue.out()).contains(bobs), aliceQueue.toString());
        assertTrue(ids(bobQueue.out()).contains(bobs), bobQueue.toString());
        assertFalse(ids(bobQueue.out()).contains(alices), bobQueue.toString());

        Shell.Result hidden = as(alice, "squeue", "-j", Long.toString(bobs));
        assertEquals(new Shell.Result(1, "", "slurm_load_jobs error: Invalid job id specified\n").toString(), hidden.toString());
        Shell.Result show = as(alice, "scontrol", "show", "job", Long.toString(bobs));
        assertEquals(new Shell.Result(1, "", "slurm_load_jobs error: Invalid job id specified\n").toString(), show.toString());
        Shell.Result own = as(alice, "scontrol", "show", "job", Long.toString(alices));
        assertEquals(0, own.exit(), own.toString());
        assertTrue(own.out().startsWith("JobId=" + alices + " "), own.toString());

        Shell.Result rootQueue = cluster.shell.run(cluster.work, "squeue");
        assertTrue(ids(rootQueue.out()).containsAll(List.of(alices, bobs)), "root sees all: " + rootQueue);
    }

    @Test
    void aUsersScript_isTheirs_andAnotherUsersIsRefusedAsSlurmDoes() throws Exception {
        long alices = submit(alice);
        long bobs = submit(bob);

        Shell.Result own = as(alice, "scontrol", "write", "batch_script", Long.toString(alices), "-");
        assertEquals(0, own.exit(), own.toString());
        assertTrue(own.out().contains(SECRET), own.toString());
        Shell.Result toFile = as(alice, "scontrol", "write", "batch_script", Long.toString(alices));
        assertEquals("batch script for job " + alices + " written to slurm-" + alices + ".sh\n", toFile.out(), toFile.toString());
        assertTrue(Files.readString(alice.home().resolve("slurm-" + alices + ".sh")).contains(SECRET));

        Shell.Result others = as(alice, "scontrol", "write", "batch_script", Long.toString(bobs));
        assertEquals(new Shell.Result(1, "", "job script retrieval failed: Invalid user id\n").toString(), others.toString());
        assertFalse(Files.exists(alice.home().resolve("slurm-" + bobs + ".sh")));
    }

    @Test
    void aUsersEnvironment_reachesOnlyThem_throughTheApiToo() throws Exception {
        long alices = submit(alice);
        long bobs = submit(bob);
        List<ManagedChannel> channels = new ArrayList<>();
        try {
            ControllerGrpc.ControllerBlockingStub asAlice = api(alice, channels);

            Job own = asAlice.getJob(GetJobRequest.newBuilder().setJobId(alices)
                    .setView(dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE).build()).getJob();
            assertEquals(SECRET, own.getSpec().getEnvironmentOrThrow("MY_TOKEN"), "her own environment, asked for");
            StatusRuntimeException hidden = assertThrows(StatusRuntimeException.class,
                    () -> asAlice.getJob(GetJobRequest.newBuilder().setJobId(bobs).build()));
            assertEquals(Status.Code.NOT_FOUND, hidden.getStatus().getCode());
            List<Job> listed = asAlice.listJobs(ListJobsRequest.getDefaultInstance()).getJobsList();
            assertTrue(listed.stream().noneMatch(j -> j.getJobId() == bobs), "bob's job is not listed to alice");
            assertTrue(listed.stream().noneMatch(j -> j.toString().contains("gantry-pd2")), listed.toString());

            // watching everything: alice's snapshot and changes carry only her jobs
            Context.CancellableContext watching = Context.current().withCancellation();
            try {
                Iterator<WatchJobsResponse> updates = watching.call(() -> asAlice.watchJobs(WatchJobsRequest.getDefaultInstance()));
                List<Long> snapshot = new ArrayList<>();
                long mine = -1;
                long bobsNext = submit(bob);
                mine = submit(alice);
                while (true) {
                    long id = updates.next().getJob().getJobId();
                    assertTrue(id != bobs && id != bobsNext, "alice's watch sent bob's job " + id);
                    snapshot.add(id);
                    if (id == mine) {
                        break;
                    }
                }
                assertTrue(snapshot.contains(alices), snapshot.toString());
            } finally {
                watching.cancel(null);
            }
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
        }
    }

    @Test
    void eachUser_cancelsTheirOwnJobs_andNotTheOthers() throws Exception {
        long alices = submit(alice);
        long bobs = submit(bob);

        Shell.Result denied = as(alice, "scancel", Long.toString(bobs));
        assertEquals(1, denied.exit(), denied.toString());
        assertTrue(denied.err().contains("Kill job error on job id " + bobs + ": Access/permission denied"), denied.toString());
        assertEquals(JobState.JOB_STATE_PENDING, job(bobs).getState());

        assertEquals(0, as(alice, "scancel", Long.toString(alices)).exit());
        assertEquals(0, as(bob, "scancel", Long.toString(bobs)).exit());
        cluster.await(alices, j -> j.getState() == JobState.JOB_STATE_CANCELLED);
        cluster.await(bobs, j -> j.getState() == JobState.JOB_STATE_CANCELLED);
    }

    @Test
    void sprioAndSshare_showAUserOnlyTheirOwn() throws Exception {
        long alices = submit(alice);
        long bobs = submit(bob);

        Shell.Result sprio = as(alice, "sprio", "-h", "-o", "%i");
        assertEquals(0, sprio.exit(), sprio.toString());
        List<Long> prioritized = sprio.out().lines().map(l -> Long.parseLong(l.trim())).toList();
        assertTrue(prioritized.contains(alices), sprio.toString());
        assertFalse(prioritized.contains(bobs), sprio.toString());

        Shell.Result sshare = as(alice, "sshare", "-a", "-n", "-P");
        assertEquals(0, sshare.exit(), sshare.toString());
        assertTrue(sshare.out().contains("gantry-pd1"), sshare.toString());
        assertFalse(sshare.out().contains("gantry-pd2"), sshare.toString());
    }

    private Job job(long id) {
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }
}
