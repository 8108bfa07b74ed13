package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetBatchScriptRequest;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobView;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.common.auth.Identity;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's batch script and submitted environment are its owner's, operators' and administrators' only, whatever
 * PrivateData says (Slurm's REQUEST_BATCH_SCRIPT rule): stripped from every answer to anyone else, and GetBatchScript
 * (scontrol write batch_script) refused to them. No PrivateData here: everybody sees every job.
 */
class ScriptPrivacyApiTest {

    static final Identity ALICE = ControllerApiRig.ALICE;
    static final Identity BOB = PrivateDataApiTest.BOB;
    static final Identity OLGA = PrivateDataApiTest.OLGA;
    static final Identity ROOT = PrivateDataApiTest.ROOT;
    static final String SCRIPT = "#!/bin/sh\n# token=s3cr3t\ntrue\n";

    ControllerApiRig rig;
    long alices;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                NodeName=n1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                Account=science Users=alice,bob,olga
                User=olga DefaultAccount=science AdminLevel=Operator
                """);
        alices = rig.as(ALICE).submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder().setScript(SCRIPT)
                .putEnvironment("AWS_SECRET_ACCESS_KEY", "hunter2").addArgv("--input=data").setWorkDir("/tmp")
                .setTimeLimitSeconds(60)).build()).getJobId();
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    Job viaGet(Identity who) {
        return rig.as(who).getJob(GetJobRequest.newBuilder().setJobId(alices).build()).getJob();
    }

    Job viaList(Identity who) {
        return rig.as(who).listJobs(ListJobsRequest.newBuilder().addJobIds(alices).build()).getJobs(0);
    }

    Job viaWatch(Identity who) {
        Context.CancellableContext watching = Context.current().withCancellation();
        try {
            Iterator<WatchJobsResponse> it = watching.call(() -> rig.as(who).watchJobs(WatchJobsRequest.newBuilder()
                    .setFilter(ListJobsRequest.newBuilder().addJobIds(alices)).build()));
            return it.next().getJob();
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            watching.cancel(null);
        }
    }

    Job viaPrivateGet(Identity who) {
        return rig.as(who).getJob(GetJobRequest.newBuilder().setJobId(alices).setView(JobView.JOB_VIEW_PRIVATE).build())
                .getJob();
    }

    @Test
    void nobody_getsTheScriptOrEnvironment_fromGetListOrWatch_inTheirDefaultView() {
        for (Identity who : List.of(BOB, ALICE, OLGA, ROOT)) {
            for (Job seen : List.of(viaGet(who), viaList(who), viaWatch(who))) {
                assertEquals(alices, seen.getJobId());
                assertEquals("", seen.getSpec().getScript(), who.user());
                assertEquals(0, seen.getSpec().getEnvironmentCount(), who.user());
                assertEquals(List.of("--input=data"), seen.getSpec().getArgvList(), "the command line, as Slurm's Command=");
                assertEquals("alice", seen.getSpec().getUser());
            }
        }
    }

    @Test
    void theOwnerOperatorsAndAdministrators_getItWhole_inThePrivateView() {
        for (Identity who : List.of(ALICE, OLGA, ROOT)) {
            Job seen = viaPrivateGet(who);
            assertEquals(SCRIPT, seen.getSpec().getScript(), who.user());
            assertEquals("hunter2", seen.getSpec().getEnvironmentOrThrow("AWS_SECRET_ACCESS_KEY"), who.user());
        }
    }

    @Test
    void anotherUser_askingThePrivateView_isPermissionDenied_namingWhat() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> viaPrivateGet(BOB));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("view: the script and environment of job " + alices),
                e.getStatus().getDescription());
    }

    @Test
    void thePrivateView_isRefusedInListsAndWatches() {
        for (var call : List.<org.junit.jupiter.api.function.Executable>of(
                () -> rig.as(ALICE).listJobs(ListJobsRequest.newBuilder().setView(JobView.JOB_VIEW_PRIVATE).build()),
                () -> rig.as(ALICE).watchJobs(WatchJobsRequest.newBuilder().setFilter(ListJobsRequest.newBuilder()
                        .setView(JobView.JOB_VIEW_PRIVATE)).build()).next())) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().startsWith("view: JOB_VIEW_PRIVATE is for GetJob only"),
                    e.getStatus().getDescription());
        }
    }

    @ParameterizedTest(name = "{0} reads it")
    @ValueSource(strings = {"alice", "olga", "root"})
    void getBatchScript_answersTheOwnerOperatorsAndAdministrators(String user) {
        Identity who = switch (user) {
            case "alice" -> ALICE;
            case "olga" -> OLGA;
            default -> ROOT;
        };
        assertEquals(SCRIPT, rig.as(who).getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(alices).build()).getScript());
    }

    @Test
    void getBatchScript_ofAnotherUsersJob_isPermissionDenied_namingWhat() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.as(BOB).getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(alices).build()));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("job_id: the batch script of job " + alices), e.getStatus().getDescription());
        assertTrue(e.getStatus().getDescription().endsWith("Invalid user id"), "Slurm's text: " + e.getStatus().getDescription());
    }

    @Test
    void getBatchScript_ofAnUnknownJob_isNotFound() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(9999).build()));

        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        assertEquals("job_id: Invalid job id specified: 9999", e.getStatus().getDescription());
    }
}
