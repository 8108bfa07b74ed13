package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.GetBatchScriptRequest;
import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.Qos;
import dev.gantry.api.v1.SuspendJobsRequest;
import dev.gantry.api.v1.UpdateQosRequest;
import dev.gantry.common.auth.Identity;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Refusals say what was refused and carry PERMISSION_DENIED, per job or for the whole call; an operator's or
 * administrator's action on another user's job, QOS edits and refused privileged calls leave an audit line naming who
 * (name and uid), what and when.
 */
class PrivilegedActionsApiTest {

    static final Identity ALICE = ControllerApiRig.ALICE;
    static final Identity BOB = PrivateDataApiTest.BOB;
    static final Identity OLGA = PrivateDataApiTest.OLGA;
    static final Identity ROOT = PrivateDataApiTest.ROOT;

    ControllerApiRig rig;
    long alices;
    final ListAppender<ILoggingEvent> audit = new ListAppender<>();

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                NodeName=n1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                Account=science Users=alice,bob,olga
                User=olga DefaultAccount=science AdminLevel=Operator
                """);
        alices = PrivateDataApiTest.submit(rig.as(ALICE));
        audit.start();
        ((Logger) LoggerFactory.getLogger("dev.gantry.audit")).addAppender(audit);
    }

    @AfterEach
    void stop() {
        ((Logger) LoggerFactory.getLogger("dev.gantry.audit")).detachAppender(audit);
        rig.close();
    }

    List<String> auditLines() {
        return audit.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void anotherUsersJob_isRefusedPerJob_withCodePermissionDenied() {
        CancelResult cancel = rig.as(BOB).cancelJob(CancelJobRequest.newBuilder().addJobIds(alices).build()).getResults(0);
        JobResult hold = rig.as(BOB).holdJob(HoldJobRequest.newBuilder().addJobIds(alices).build()).getResults(0);
        JobResult unknown = rig.as(BOB).holdJob(HoldJobRequest.newBuilder().addJobIds(9999).build()).getResults(0);

        assertEquals("Access/permission denied", cancel.getError(), "Slurm's text, which scancel prints");
        assertEquals(Status.Code.PERMISSION_DENIED.value(), cancel.getCode());
        assertEquals(Status.Code.PERMISSION_DENIED.value(), hold.getCode());
        assertEquals(Status.Code.NOT_FOUND.value(), unknown.getCode());
        assertEquals(0, rig.as(ALICE).holdJob(HoldJobRequest.newBuilder().addJobIds(alices).build()).getResults(0).getCode());
    }

    @Test
    void aUserSuspending_orEditingAQos_isRefusedWhole_namingWhat() {
        StatusRuntimeException suspend = assertThrows(StatusRuntimeException.class,
                () -> rig.as(BOB).suspendJobs(SuspendJobsRequest.newBuilder().addJobIds(alices).build()));
        StatusRuntimeException qos = assertThrows(StatusRuntimeException.class, () -> rig.as(BOB).updateQos(
                UpdateQosRequest.newBuilder().setQos(Qos.newBuilder().setName("normal").setPriority(10)).build()));

        assertEquals(Status.Code.PERMISSION_DENIED, suspend.getStatus().getCode());
        assertTrue(suspend.getStatus().getDescription().startsWith("scontrol suspend: only operators and administrators"),
                suspend.getStatus().getDescription());
        assertEquals(Status.Code.PERMISSION_DENIED, qos.getStatus().getCode());
        assertTrue(qos.getStatus().getDescription().startsWith("qos normal: only operators and administrators edit QOS"),
                qos.getStatus().getDescription());
        assertTrue(auditLines().stream().anyMatch(l -> l.contains("bob (uid 1001) refused: edit of QOS normal")), auditLines().toString());
    }

    @Test
    void anOperatorActingOnAnotherUsersJob_isAudited_withNameUidAndTime() {
        assertTrue(rig.as(OLGA).holdJob(HoldJobRequest.newBuilder().addJobIds(alices).build()).getResults(0).getOk());
        assertTrue(rig.as(ROOT).cancelJob(CancelJobRequest.newBuilder().addJobIds(alices).build()).getResults(0).getOk());

        List<String> lines = auditLines();
        assertTrue(lines.stream().anyMatch(l -> l.matches("audit: \\S+Z olga \\(uid 1002\\) held job " + alices + " of alice")),
                lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("audit: \\S+Z root \\(uid 0\\) cancelled job " + alices + " of alice")),
                lines.toString());
    }

    @Test
    void usersActingOnTheirOwnJobs_leaveNoAuditLine() {
        rig.as(ALICE).holdJob(HoldJobRequest.newBuilder().addJobIds(alices).build());
        rig.as(ALICE).getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(alices).build());
        rig.as(ALICE).cancelJob(CancelJobRequest.newBuilder().addJobIds(alices).build());

        assertFalse(auditLines().stream().anyMatch(l -> l.contains("alice (uid")), auditLines().toString());
    }

    @Test
    void qosEdits_andReadingAnotherUsersScript_areAudited() {
        rig.as(ROOT).updateQos(UpdateQosRequest.newBuilder().setQos(Qos.newBuilder().setName("normal").setPriority(10)
                .setMaxJobsPerUser(-1).setMaxSubmitJobsPerUser(-1).setMaxWallSeconds(-1).setPreemptExemptTimeSeconds(-1)
                .setUsageFactor(1)).build());
        rig.as(OLGA).getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(alices).build());

        List<String> lines = auditLines();
        assertTrue(lines.stream().anyMatch(l -> l.contains("root (uid 0) set QOS normal to ")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("olga (uid 1002) read the batch script of job " + alices + " of alice")),
                lines.toString());
    }
}
