package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobPriority;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListStepsRequest;
import dev.gantry.api.v1.ShareRow;
import dev.gantry.api.v1.Step;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.common.auth.Identity;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PrivateData as Slurm 22.05 honours it (job_mgr.c _hide_job_user_rec, step_mgr.c, assoc_mgr_get_shares, proc_req.c):
 * users see only their own jobs, steps, priorities and usage; operators and administrators see everything.
 */
class PrivateDataApiTest {

    static final Identity ALICE = ControllerApiRig.ALICE;
    static final Identity BOB = new Identity("bob", 1001, 1001, List.of(1001L), "local");
    static final Identity OLGA = new Identity("olga", 1002, 1002, List.of(1002L), "local");
    static final Identity ROOT = new Identity("root", 0, 0, List.of(0L), "local");

    ControllerApiRig rig;
    long alices;
    long bobs;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                PrivateData=jobs,usage,nodes,partitions
                PriorityWeightAge=1000
                NodeName=n1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                Account=science Users=alice,bob,olga
                User=olga DefaultAccount=science AdminLevel=Operator
                """);
        alices = submit(rig.as(ALICE));
        bobs = submit(rig.as(BOB));
        rig.harness().registerNodes("n1");
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    static long submit(ControllerGrpc.ControllerBlockingStub as) {
        return as.submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n")
                .setWorkDir("/tmp").setTimeLimitSeconds(60)).build()).getJobId();
    }

    List<Long> listed(Identity who) {
        return rig.as(who).listJobs(ListJobsRequest.getDefaultInstance()).getJobsList().stream().map(Job::getJobId).toList();
    }

    @Test
    void squeue_showsAUserOnlyTheirOwnJobs_andOperatorsAndAdministratorsAll() {
        assertEquals(List.of(alices), listed(ALICE));
        assertEquals(List.of(bobs), listed(BOB));
        assertEquals(List.of(alices, bobs), listed(OLGA));
        assertEquals(List.of(alices, bobs), listed(ROOT));
        assertEquals(List.of(), rig.as(ALICE).listJobs(ListJobsRequest.newBuilder().addUsers("bob").build()).getJobsList(),
                "squeue -u bob: nothing, as Slurm");
    }

    @Test
    void scontrolShowJob_ofAnotherUsersJob_isInvalidJobId_asForOneThatDoesNotExist() {
        StatusRuntimeException hidden = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).getJob(GetJobRequest.newBuilder().setJobId(bobs).build()));
        StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).getJob(GetJobRequest.newBuilder().setJobId(9999).build()));

        assertEquals(Status.Code.NOT_FOUND, hidden.getStatus().getCode());
        assertEquals("job_id: Invalid job id specified: " + bobs, hidden.getStatus().getDescription());
        assertEquals(unknown.getStatus().getCode(), hidden.getStatus().getCode());
        assertEquals(bobs, rig.as(OLGA).getJob(GetJobRequest.newBuilder().setJobId(bobs).build()).getJob().getJobId());
    }

    @Test
    void watchJobs_sendsAUserTheirOwnJobs_snapshotAndChanges() {
        Context.CancellableContext watching = Context.current().withCancellation();
        try {
            Iterator<WatchJobsResponse> updates = watching.call(() -> rig.as(ALICE).watchJobs(WatchJobsRequest.getDefaultInstance()));
            assertEquals(alices, updates.next().getJob().getJobId(), "the snapshot: alice's job, not bob's");

            submit(rig.as(BOB));
            long next = submit(rig.as(ALICE));

            assertEquals(next, updates.next().getJob().getJobId(), "bob's new job is never sent to alice");
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            watching.cancel(null);
        }
    }

    @Test
    void squeueSteps_showAUserOnlyTheStepsOfTheirOwnJobs() {
        running(alices);
        running(bobs);

        List<String> alicesView = rig.stepsAs(ALICE).listSteps(ListStepsRequest.getDefaultInstance()).getStepsList().stream()
                .map(s -> s.getJobId() + "." + s.getStepId()).toList();
        List<Step> olgasView = rig.stepsAs(OLGA).listSteps(ListStepsRequest.getDefaultInstance()).getStepsList();

        assertEquals(List.of(alices + ".batch"), alicesView);
        assertEquals(2, olgasView.size());
        assertEquals(List.of(), rig.stepsAs(ALICE).listSteps(ListStepsRequest.newBuilder().addJobIds(bobs).build()).getStepsList());
    }

    @Test
    void sprio_followsPrivateDataJobs_asSlurm() {
        List<Long> alicesView = rig.as(ALICE).getPriorities(GetPrioritiesRequest.getDefaultInstance()).getPrioritiesList()
                .stream().map(JobPriority::getJobId).toList();
        List<Long> olgasView = rig.as(OLGA).getPriorities(GetPrioritiesRequest.getDefaultInstance()).getPrioritiesList()
                .stream().map(JobPriority::getJobId).toList();

        assertEquals(List.of(alices), alicesView);
        assertEquals(List.of(alices, bobs), olgasView);
    }

    @Test
    void sshare_withPrivateDataUsage_showsAUserOnlyTheirOwnRows_noAccounts() {
        GetSharesRequest all = GetSharesRequest.newBuilder().setAllUsers(true).build();
        List<String> alicesView = rig.as(ALICE).getShares(all).getRowsList().stream()
                .map(r -> r.getAccount() + "/" + r.getUser()).toList();
        List<ShareRow> olgasView = rig.as(OLGA).getShares(all).getRowsList();

        assertEquals(List.of("science/alice"), alicesView);
        assertTrue(olgasView.stream().anyMatch(r -> r.getUser().equals("bob")), olgasView.toString());
        assertTrue(olgasView.stream().anyMatch(r -> r.getUser().isEmpty()), "account rows for operators");
    }

    @Test
    void sinfo_withPrivateDataNodesAndPartitions_isRefusedToUsers_namingWhat() {
        StatusRuntimeException nodes = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).listNodes(ListNodesRequest.getDefaultInstance()));
        StatusRuntimeException partitions = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).listPartitions(ListPartitionsRequest.getDefaultInstance()));

        assertEquals(Status.Code.PERMISSION_DENIED, nodes.getStatus().getCode());
        assertTrue(nodes.getStatus().getDescription().startsWith("nodes: "), nodes.getStatus().getDescription());
        assertEquals(Status.Code.PERMISSION_DENIED, partitions.getStatus().getCode());
        assertTrue(partitions.getStatus().getDescription().startsWith("partitions: "), partitions.getStatus().getDescription());
        assertEquals(1, rig.as(OLGA).listNodes(ListNodesRequest.getDefaultInstance()).getNodesCount());
        assertEquals(1, rig.as(ROOT).listPartitions(ListPartitionsRequest.getDefaultInstance()).getPartitionsCount());
    }

    /** Starts a pending job on n1 now, as a pass would. */
    void running(long id) {
        rig.harness().startOn(id, "debug", new NodeShare("n1", 1, 0));
    }
}
