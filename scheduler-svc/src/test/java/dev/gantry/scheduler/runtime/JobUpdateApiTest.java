package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.scheduler.model.ResourceAsk;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * scontrol update JobId= over the client API: each update changes only the fields it names and keeps every earlier
 * update, in memory and in what the controller stored (Slurm edits the job record in place).
 */
class JobUpdateApiTest {

    static final String CONFIG = """
            NodeName=n[1-4] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
            PartitionName=long Nodes=n[1-4] MaxTime=600 State=UP
            QOS=normal
            QOS=high
            Account=physics Parent=root Fairshare=40 Users=alice QOS=normal,high DefaultQOS=normal
            Account=bio Parent=root Fairshare=60 Users=alice QOS=normal,high
            User=root DefaultAccount=physics AdminLevel=Administrator
            """;

    ControllerApiRig rig;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig(CONFIG);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    long submit() {
        JobSpec spec = JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000).setGid(1000)
                .setWorkDir("/tmp").setName("job").setMinNodes(1).setTimeLimitSeconds(1800).build();
        return rig.api().submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
    }

    void update(long id, UpdateJobRequest.Builder change) {
        List<JobResult> results = rig.api().updateJob(change.addJobIds(id).setUser("alice").build()).getResultsList();
        assertTrue(results.get(0).getOk(), results.toString());
    }

    Job job(long id) {
        return rig.api().getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    /** The fields scontrol update may change, as one line to compare. */
    static String edited(Job j) {
        return "Partition=" + j.getPartition() + " Partitions=" + j.getPartitionsList() + " NumNodes=" + j.getMinNodes()
                + "-" + j.getMaxNodes() + " QOS=" + j.getQos() + " Account=" + j.getAccount() + " TimeLimit="
                + j.getTimeLimitSeconds() + " Nice=" + j.getNice();
    }

    @Test
    void eachUpdate_changesOnlyWhatItNames_andKeepsEveryEarlierOne() {
        long id = submit();
        assertEquals("Partition=debug Partitions=[debug] NumNodes=1-1 QOS=normal Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)));

        update(id, UpdateJobRequest.newBuilder().addPartitions("long"));
        assertEquals("Partition=long Partitions=[long] NumNodes=1-1 QOS=normal Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)));

        update(id, UpdateJobRequest.newBuilder().setMinNodes(2).setMaxNodes(3));
        assertEquals("Partition=long Partitions=[long] NumNodes=2-3 QOS=normal Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)), "NumNodes keeps the partition");

        update(id, UpdateJobRequest.newBuilder().setQos("high"));
        assertEquals("Partition=long Partitions=[long] NumNodes=2-3 QOS=high Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)), "QOS keeps the node counts and the partition");

        update(id, UpdateJobRequest.newBuilder().setTimeLimitSeconds(1200));
        update(id, UpdateJobRequest.newBuilder().setAccount("bio"));
        assertEquals("Partition=long Partitions=[long] NumNodes=2-3 QOS=high Account=bio TimeLimit=1200 Nice=0",
                edited(job(id)), "Account keeps the time limit and everything before");

        update(id, UpdateJobRequest.newBuilder().setNice(10));
        update(id, UpdateJobRequest.newBuilder().setMinNodes(3));
        assertEquals("Partition=long Partitions=[long] NumNodes=3-3 QOS=high Account=bio TimeLimit=1200 Nice=10",
                edited(job(id)), "NumNodes=3 alone keeps the maximum");
    }

    @Test
    void aMinimumAboveTheMaximumTheJobAskedFor_isRefusedAsSlurmDoes() {
        long id = submit(); // -N1: at most one node
        List<JobResult> results = rig.api().updateJob(UpdateJobRequest.newBuilder().addJobIds(id).setUser("alice")
                .setMinNodes(2).build()).getResultsList();
        assertEquals("Node count specification invalid", results.get(0).getError());
        assertEquals("Partition=debug Partitions=[debug] NumNodes=1-1 QOS=normal Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)));
        update(id, UpdateJobRequest.newBuilder().setMinNodes(2).setMaxNodes(2));
        assertEquals(2, job(id).getMinNodes());
    }

    @Test
    void anUpdateNotNamingNodeCounts_leavesThemUnrequestedWhereTheSubmissionDid() {
        long id = rig.api().submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
                .setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000).setGid(1000).setWorkDir("/tmp")).build())
                .getJobId();
        update(id, UpdateJobRequest.newBuilder().setQos("high"));
        Job j = job(id);
        assertEquals(false, j.getSpec().hasMinNodes() || j.getSpec().hasMaxNodes(), "scontrol shows NumNodes=1, not 1-1");
        assertEquals("Partition=debug Partitions=[debug] NumNodes=1-1 QOS=high Account=physics TimeLimit=3600 Nice=0",
                edited(j));
    }

    @Test
    void countsFromAnUpdateTheSpecDoesNotHold_areKept() throws Exception {
        long id = submit();
        // a job stored before specs kept updates: NumNodes=3 in its request, not in its spec
        rig.restart(store -> store.jobs.computeIfPresent(id, (k, j) -> j.toBuilder()
                .request(j.request().toBuilder().minNodes(null).maxNodes(null).build())
                .ask(new ResourceAsk(3, 3, 3, 1, 0)).build()));
        update(id, UpdateJobRequest.newBuilder().setQos("high"));
        assertEquals("Partition=debug Partitions=[debug] NumNodes=3-3 QOS=high Account=physics TimeLimit=1800 Nice=0",
                edited(job(id)));
    }

    @Test
    void everyUpdate_isKeptAcrossAControllerRestart() throws Exception {
        long id = submit();
        update(id, UpdateJobRequest.newBuilder().addPartitions("long"));
        update(id, UpdateJobRequest.newBuilder().setMinNodes(2).setMaxNodes(2));
        update(id, UpdateJobRequest.newBuilder().setQos("high").setAccount("bio"));
        update(id, UpdateJobRequest.newBuilder().setTimeLimitSeconds(1200));
        String before = edited(job(id));
        assertEquals("Partition=long Partitions=[long] NumNodes=2-2 QOS=high Account=bio TimeLimit=1200 Nice=0", before);

        rig.restart();

        assertEquals(before, edited(job(id)));
        update(id, UpdateJobRequest.newBuilder().setNice(5)); // a later update still starts from all of them
        assertEquals("Partition=long Partitions=[long] NumNodes=2-2 QOS=high Account=bio TimeLimit=1200 Nice=5",
                edited(job(id)));
    }
}
