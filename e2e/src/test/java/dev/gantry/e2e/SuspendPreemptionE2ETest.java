package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.common.hostlist.Hostlist;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * SUSPEND preemption on a real local cluster, the two scenarios of https://slurm.schedmd.com/preempt.html that issue 5
 * names (PreemptType=preempt/partition_prio, PreemptMode=SUSPEND,GANG), on one cluster with disjoint node sets:
 * <ul>
 *   <li>five-node suspend: a 3-node hipri job suspends the three oldest of five active jobs and starts at once on
 *       their nodes; their processes really stop (state T or a frozen cgroup, no CPU time); when it ends they resume;</li>
 *   <li>three modes on one node: low (REQUEUE), med (SUSPEND) and hi (OFF) jobs submitted in that order leave low
 *       pending (Resources), med suspended and hi running; when hi ends med resumes and low still waits.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SuspendPreemptionE2ETest {

    /** Uses a little CPU (a short busy loop, then a pause), so that CPU time grows while it runs. */
    static final String LIGHT_SPIN = "while :; do i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; sleep 0.1; done";

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "suspend", """
                ClusterName=e2e-suspend
                KillWait=2
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                SchedulerTimeSlice=30
                NodeName=s[1-5] CPUs=1 RealMemory=1024
                NodeName=m1 CPUs=1 RealMemory=1024
                PartitionName=active Nodes=s[1-5] Default=YES PriorityTier=1 OverSubscribe=FORCE:1 MaxTime=60
                PartitionName=hipri Nodes=s[1-5] PriorityTier=2 PreemptMode=SUSPEND,GANG OverSubscribe=FORCE:1 MaxTime=60
                PartitionName=low Nodes=m1 PriorityTier=10 PreemptMode=REQUEUE MaxTime=60
                PartitionName=med Nodes=m1 PriorityTier=20 PreemptMode=SUSPEND MaxTime=60
                PartitionName=hi Nodes=m1 PriorityTier=30 PreemptMode=OFF MaxTime=60
                """);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Job job(long id) {
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    private static boolean is(Job j, JobState state) {
        return j.getState() == state && !j.getCompleting();
    }

    /** A job script that runs until the test creates {@code file} (so nothing depends on how long a step takes). */
    private String untilCreated(String file) {
        Path f = cluster.work.resolve(file);
        return "while [ ! -e " + f + " ]; do sleep 0.05; done";
    }

    /** Waits until the partitions' jobs of an earlier test have all left squeue's default view (ended, not completing). */
    private void awaitNoJobsIn(String partitions) throws Exception {
        TestCluster.awaitTrue(() -> cluster.shell.run(cluster.work, "squeue", "-h", "-p", partitions, "-t", "PD,R,S,CG")
                .out().isBlank(), "no job left in " + partitions);
    }

    private void create(String file) throws Exception {
        Files.writeString(cluster.work.resolve(file), "");
    }

    @Test
    void fiveNodeSuspend_aThreeNodeHipriJobSuspendsThreeActiveJobs_andTheyResumeWhenItEnds() throws Exception {
        awaitNoJobsIn("active,hipri");
        List<Long> active = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            active.add(cluster.submit("-p", "active", "-N1", "--mem=100", "-o", "/dev/null", "--wrap", LIGHT_SPIN));
        }
        for (long id : active) {
            cluster.await(id, j -> is(j, JobState.JOB_STATE_RUNNING));
        }
        long hipri = cluster.submit("-p", "hipri", "-N3", "--mem=100", "-o", "/dev/null", "--wrap",
                untilCreated("hipri.done"));
        try {
            Job running = cluster.await(hipri, j -> is(j, JobState.JOB_STATE_RUNNING));
            List<Long> suspended = new ArrayList<>();
            Set<String> theirNodes = new HashSet<>();
            TestCluster.awaitTrue(() -> {
                suspended.clear();
                theirNodes.clear();
                for (long id : active) {
                    Job j = job(id);
                    if (is(j, JobState.JOB_STATE_SUSPENDED)) {
                        suspended.add(id);
                        theirNodes.add(j.getNodeList());
                    }
                }
                return suspended.size() == 3;
            }, "three active jobs are suspended");
            // It started at once, on the suspended jobs' nodes, while they are still there (not after they ended).
            assertTrue(is(job(hipri), JobState.JOB_STATE_RUNNING), "hipri job still running: " + job(hipri));
            assertEquals(theirNodes, Set.copyOf(Hostlist.expand(running.getNodeList())));
            // Equal victims go oldest first, as Slurm's job list order (preempt.html: 485-487 of 485-489).
            assertEquals(active.subList(0, 3), suspended, "the three oldest are suspended");
            assertEquals(2, active.stream().filter(id -> is(job(id), JobState.JOB_STATE_RUNNING)).count());

            for (long id : suspended) {
                assertFalse(Procs.ofJob(cluster, id).isEmpty(), "no processes for job " + id);
                TestCluster.awaitTrue(() -> Procs.allStopped(cluster, id), "job " + id + "'s processes are stopped");
            }
            // A task counts as stopped (or frozen) just before it leaves the CPU, and the CPU time since its last tick
            // is charged when it does: let that settle before the baseline.
            Thread.sleep(200);
            long[] before = new long[3];
            for (int i = 0; i < 3; i++) {
                before[i] = Procs.cpuTicks(cluster, suspended.get(i));
            }
            Thread.sleep(1500); // the hipri job runs until told: this is a window to watch, not a deadline
            for (int i = 0; i < 3; i++) {
                long id = suspended.get(i);
                assertTrue(is(job(id), JobState.JOB_STATE_SUSPENDED), "job " + id + " resumed under the preemptor");
                assertEquals(before[i], Procs.cpuTicks(cluster, id), "job " + id + " used CPU while suspended");
            }

            create("hipri.done");
            cluster.await(hipri, j -> is(j, JobState.JOB_STATE_COMPLETED));
            for (int i = 0; i < 3; i++) {
                long id = suspended.get(i);
                cluster.await(id, j -> is(j, JobState.JOB_STATE_RUNNING));
                long frozenAt = before[i];
                TestCluster.awaitTrue(() -> Procs.cpuTicks(cluster, id) > frozenAt, "job " + id + " runs again after resuming");
            }
        } finally {
            List<String> ids = new ArrayList<>();
            active.forEach(id -> ids.add(Long.toString(id)));
            ids.add(Long.toString(hipri));
            cluster.shell.run(cluster.work, "scancel", ids.toArray(String[]::new));
        }
    }

    /**
     * The preemption page's "smart placement" wish ("Future Ideas"): three single-node jobs on s1-s3 and a 3-node hipri
     * job. The page shows Slurm suspending all three on s[1-3]; Slurm 22.05 run here places it on s1 and the two idle
     * nodes, suspending only the oldest job, and so does Gantry. The other two's counters tick on throughout.
     */
    @Test
    void smartPlacement_theHipriJobTakesTheIdleNodesAndSuspendsOnlyTheOldestJob() throws Exception {
        awaitNoJobsIn("active,hipri");
        Counters counters = new Counters(cluster);
        List<Long> active = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            active.add(cluster.submit("-p", "active", "-N1", "--mem=100", "-o", "/dev/null", "--wrap", counters.script()));
            cluster.await(active.getLast(), j -> is(j, JobState.JOB_STATE_RUNNING));
        }
        assertEquals(List.of("s1", "s2", "s3"), active.stream().map(id -> job(id).getNodeList()).toList());
        long hipri = cluster.submit("-p", "hipri", "-N3", "--mem=100", "-o", "/dev/null", "--wrap", untilCreated("smart.done"));
        try {
            Job running = cluster.await(hipri, j -> is(j, JobState.JOB_STATE_RUNNING));
            assertEquals("s[1,4-5]", running.getNodeList());
            cluster.await(active.get(0), j -> is(j, JobState.JOB_STATE_SUSPENDED));
            long before1 = counters.of(active.get(1));
            long before2 = counters.of(active.get(2));
            Thread.sleep(300); // the oldest one's last tick before its freeze may land just after it was recorded
            long stopped = counters.of(active.get(0));
            Thread.sleep(1000);
            assertEquals(stopped, counters.of(active.get(0)), "the suspended job ticked");
            assertTrue(counters.of(active.get(1)) > before1 && counters.of(active.get(2)) > before2, "the others were stopped");
            assertTrue(is(job(active.get(1)), JobState.JOB_STATE_RUNNING) && is(job(active.get(2)), JobState.JOB_STATE_RUNNING));
        } finally {
            create("smart.done");
            List<String> ids = new ArrayList<>();
            active.forEach(id -> ids.add(Long.toString(id)));
            ids.add(Long.toString(hipri));
            cluster.shell.run(cluster.work, "scancel", ids.toArray(String[]::new));
            for (long id : active) {
                cluster.await(id, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
            }
        }
    }

    @Test
    void threeModesOnOneNode_lowIsRequeued_medSuspended_hiRuns_thenMedResumesAndLowWaits() throws Exception {
        long low = cluster.submit("-p", "low", "--mem=100", "-o", "/dev/null", "--wrap", "sleep 300");
        cluster.await(low, j -> is(j, JobState.JOB_STATE_RUNNING));
        long med = cluster.submit("-p", "med", "--mem=100", "-o", "/dev/null", "--wrap", LIGHT_SPIN);
        cluster.await(med, j -> is(j, JobState.JOB_STATE_RUNNING));
        cluster.await(low, j -> is(j, JobState.JOB_STATE_PENDING) && j.getRestartCount() == 1);
        long hi = cluster.submit("-p", "hi", "--mem=100", "-o", "/dev/null", "--wrap", untilCreated("hi.done"));
        try {
            cluster.await(hi, j -> is(j, JobState.JOB_STATE_RUNNING));
            cluster.await(med, j -> is(j, JobState.JOB_STATE_SUSPENDED));
            Job waiting = cluster.await(low, j -> is(j, JobState.JOB_STATE_PENDING) && j.getReason().equals("Resources"));
            assertEquals(1, waiting.getRestartCount());
            TestCluster.awaitTrue(() -> Procs.allStopped(cluster, med), "med's processes are stopped");
            String squeue = cluster.shell.run(cluster.work, "squeue", "-h", "-j", low + "," + med + "," + hi,
                    "-o", "%i %t %r").out();
            assertTrue(squeue.contains(low + " PD Resources"), squeue);
            assertTrue(squeue.contains(med + " S "), squeue);
            assertTrue(squeue.contains(hi + " R "), squeue);

            create("hi.done");
            cluster.await(hi, j -> is(j, JobState.JOB_STATE_COMPLETED));
            cluster.await(med, j -> is(j, JobState.JOB_STATE_RUNNING));
            Job still = job(low);
            assertTrue(is(still, JobState.JOB_STATE_PENDING), "low must wait while med runs: " + still);
            assertEquals("Resources", still.getReason());
        } finally {
            cluster.shell.run(cluster.work, "scancel", Long.toString(low), Long.toString(med), Long.toString(hi));
        }
    }
}
