package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent running as root runs each job as its submitting user (setpriv): files are created as that user, a uid
 * the node does not know or a file the user may not write fails the launch with the reason, and one user's job
 * cannot signal or read another's. Needs root and useradd; skipped otherwise.
 */
class UserSwitchTest {

    private static final String USER = "gantrytest";
    private static int uid;
    private static int gid;

    @TempDir
    Path tmp;

    AgentRig rig;
    Path shared;

    @BeforeAll
    static void createUser() throws Exception {
        assumeTrue(Credentials.OWN_UID == 0, "the agent must run as root to switch users");
        if (run("id", "-u", USER) != 0) {
            assumeTrue(run("useradd", "--no-create-home", "--shell", "/bin/sh", USER) == 0, "useradd failed");
        }
        uid = Integer.parseInt(output("id", "-u", USER));
        gid = Integer.parseInt(output("id", "-g", USER));
    }

    @BeforeEach
    void start() throws IOException {
        rig = new AgentRig(tmp);
        // the user needs a way in: the test's temp directory is root's (0700); a directory of theirs below it
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
        shared = Files.createDirectories(tmp.resolve("home"));
        Files.setAttribute(shared, "unix:uid", uid);
        Files.setAttribute(shared, "unix:gid", gid);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void job_runsAsItsUser_andItsOutputFileIsTheirs() throws Exception {
        ReportJobExitRequest exit = launchAs(100, "#!/bin/sh\necho \"$(id -u) $(id -g)\"\n", uid, gid);

        assertEquals(0, exit.getExitCode());
        Path out = shared.resolve("slurm-100.out");
        assertEquals(uid + " " + gid + "\n", Files.readString(out));
        assertEquals(uid, Files.getAttribute(out, "unix:uid"));
    }

    @Test
    void unknownUid_failsTheLaunch_withAClearReason() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.launchJob(signedAs(request(101, "#!/bin/sh\ntrue\n"), 3_999_999, 3_999_999)));

        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("does not exist on node n1"), e.getStatus().getDescription());
    }

    @Test
    void outputPathTheUserMayNotWrite_failsTheLaunch_evenThoughTheAgentIsRoot() throws IOException {
        Path rootOnly = Files.createDirectories(tmp.resolve("root-only"));
        Files.setPosixFilePermissions(rootOnly, PosixFilePermissions.fromString("rwxr-xr-x"));

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.launchJob(signedAs(request(102, "#!/bin/sh\ntrue\n").setStdoutPath(rootOnly.resolve("x.out").toString()), uid, gid)));

        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("Permission denied"), e.getStatus().getDescription());
        assertTrue(Files.notExists(rootOnly.resolve("x.out")));
    }

    @Test
    void oneUsersJob_cannotSignalOrReadAnotherUsersJob() throws Exception {
        long victim = rig.agent.launchJob(signedAs(request(103, "#!/bin/sh\necho ready\nsleep 600\n"), 0, 0)).getPid();
        Path victimScript = rig.spoolDir.resolve("job103").resolve("slurm_script");
        String attack = "#!/bin/sh\nkill -TERM -" + victim + " 2>&1 || echo kill refused\ncat " + victimScript + " 2>&1 || echo read refused\n";

        ReportJobExitRequest exit = launchAs(104, attack, uid, gid);

        String out = Files.readString(shared.resolve("slurm-104.out"));
        assertEquals(0, exit.getExitCode());
        assertTrue(out.contains("kill refused") && out.contains("read refused"), out);
        assertTrue(rig.supervisor.runningJobIds().contains(103L), "the other job still runs");
        assertNotEquals(List.of(), rig.hub.exits.stream().filter(r -> r.getJobId() == 104).toList());
    }

    private ReportJobExitRequest launchAs(long jobId, String script, int uid, int gid) {
        rig.agent.launchJob(signedAs(request(jobId, script), uid, gid));
        return rig.awaitExit(jobId);
    }

    private LaunchJobRequest.Builder request(long jobId, String script) {
        return rig.request(jobId, script).setWorkDir(shared.toString());
    }

    /** The request with a credential covering it that names the test user, {@code uid} and {@code gid}. */
    private LaunchJobRequest signedAs(LaunchJobRequest.Builder request, int uid, int gid) {
        return request.setCredential(Credentials.aCredential(rig.signer).job(request.getJobId()).nodes(AgentRig.NODE)
                .user(USER, uid, gid).covering(request.build()).sign()).build();
    }

    private static int run(String... cmd) throws Exception {
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    private static String output(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return out;
    }
}
