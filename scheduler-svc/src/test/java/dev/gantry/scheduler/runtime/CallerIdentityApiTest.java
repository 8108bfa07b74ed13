package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.CreateTokenRequest;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.Qos;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.UpdateQosRequest;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.Ed25519;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client API acts as the caller its credential proves, whatever the request says: the attacks that worked while it
 * believed request fields (a job as root, another user's job cancelled, QOS rewritten) are refused.
 */
class CallerIdentityApiTest {

    static final Identity BOB = new Identity("bob", 1001, 1001, List.of(1001L), "local");

    ControllerApiRig rig;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                NodeName=n1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    static JobSpec.Builder spec() {
        return JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp").setTimeLimitSeconds(60);
    }

    long submit(ControllerGrpc.ControllerBlockingStub as, JobSpec.Builder spec) {
        return as.submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
    }

    Job job(long id) {
        return rig.api().getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    @Test
    void aCallWithoutCredential_orWithAForgedOne_isUnauthenticated() {
        StatusRuntimeException none = assertThrows(StatusRuntimeException.class, () -> submit(rig.anonymous(), spec()));
        assertEquals(Status.Code.UNAUTHENTICATED, none.getStatus().getCode());
        assertTrue(none.getStatus().getDescription().startsWith("no credential"), none.getStatus().getDescription());

        String forged = Jwt.signEd25519(Tokens.localClaims(new Identity("root", 0, 0, List.of(), "local"), "n1", Instant.now(), "x"),
                Tokens.LOCAL_KEY_ID, Ed25519.SigningKey.of(CredentialKeys.generate().getPrivate()));
        Metadata headers = new Metadata();
        headers.put(Callers.AUTHORIZATION, "Bearer " + forged);
        StatusRuntimeException bad = assertThrows(StatusRuntimeException.class,
                () -> submit(rig.anonymous().withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers)), spec()));
        assertEquals(Status.Code.UNAUTHENTICATED, bad.getStatus().getCode());
    }

    @Test
    void aJobIsTheCallers_andClaimingUid0OrRoot_isPermissionDenied() {
        long id = submit(rig.as(BOB), spec());
        Job j = job(id);
        assertEquals("bob", j.getSpec().getUser());
        assertEquals(1001, j.getSpec().getUid());
        assertEquals(1001, j.getSpec().getGid());

        for (JobSpec.Builder claim : List.of(spec().setUser("bob").setUid(0).setGid(0), spec().setUser("root"),
                spec().setUser("alice").setUid(1000))) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> submit(rig.as(BOB), claim));
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), claim.toString());
        }
    }

    @Test
    void anotherUsersJob_cannotBeCancelled_byClaimingToBeItsOwner() {
        long alices = submit(rig.api(), spec());

        List<CancelResult> results = rig.as(BOB).cancelJob(CancelJobRequest.newBuilder().addJobIds(alices)
                .setUser("alice").build()).getResultsList();

        assertFalse(results.get(0).getOk());
        assertTrue(results.get(0).getError().startsWith("Access/permission denied"), results.get(0).getError());
        assertEquals(JobState.JOB_STATE_PENDING, job(alices).getState());
        assertTrue(rig.api().cancelJob(CancelJobRequest.newBuilder().addJobIds(alices).build()).getResults(0).getOk());
    }

    @Test
    void aUserClaimingToBeRoot_cannotRewriteAQos() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.as(BOB).updateQos(
                UpdateQosRequest.newBuilder().setUser("root").setQos(Qos.newBuilder().setName("normal").setMaxJobsPerUser(0)).build()));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        long stillSubmits = submit(rig.as(BOB), spec());
        assertTrue(stillSubmits > 0);
    }

    static final Identity ROOT = new Identity("root", 0, 0, List.of(0L), "local");

    @Test
    void aTokenFromCreateToken_authenticatesItsUser_asSlurmsAuthJwt() {
        var issued = rig.as(ROOT).createToken(CreateTokenRequest.getDefaultInstance());

        assertEquals("root", issued.getUsername());
        long lifespan = issued.getExpiresAtSeconds() - Instant.now().getEpochSecond();
        assertTrue(lifespan > 1790 && lifespan <= 1800, "Slurm's default lifespan, 1800 s: " + lifespan);
        long id = submit(rig.withToken(issued.getToken()), spec());
        assertEquals("root", job(id).getSpec().getUser());
    }

    @Test
    void onlyAnAdministrator_getsATokenForAnotherUser() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.as(BOB).createToken(CreateTokenRequest.newBuilder().setUsername("root").build()));
        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("username:"), e.getStatus().getDescription());

        var forNobody = rig.as(ROOT).createToken(CreateTokenRequest.newBuilder().setUsername("nobody").setLifespanSeconds(60).build());
        long id = submit(rig.withToken(forNobody.getToken()), spec());
        assertEquals("nobody", job(id).getSpec().getUser());
    }

    @Test
    void aLifespanOutOfRange_isRefusedNamingTheField() {
        for (long bad : new long[] {-5, 366L * 86400}) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> rig.as(ROOT).createToken(CreateTokenRequest.newBuilder().setLifespanSeconds(bad).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().startsWith("lifespan_seconds:"), e.getStatus().getDescription());
        }
    }
}
