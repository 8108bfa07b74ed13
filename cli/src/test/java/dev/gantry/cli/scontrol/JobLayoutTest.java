package dev.gantry.cli.scontrol;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.at;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobLayoutTest {

    private static final JobLayout LAYOUT = new JobLayout(NOW, ZoneOffset.UTC, gid -> gid == 1000 ? "staff" : null, false);

    /** The record scontrol prints for {@code job}, as the controller sends it. */
    private static String render(Job job) {
        return LAYOUT.render(JobInfos.job(job));
    }

    @Test
    void aRunningJobInSlurmsLayout() {
        Job job = running(aJob(42).setNumCpus(4).setNumTasks(4).setMemPerNodeMb(2048).setRequeue(true)
                .setSpec(aJob(42).getSpec().toBuilder().setName("train").setCpusPerTask(1).setStdoutPath("out-%j.log")),
                125, "n1", "n2").setEligibleTime(at(NOW.minusSeconds(600))).build();
        assertEquals("""
                JobId=42 JobName=train
                   UserId=alice(1000) GroupId=staff(1000) MCS_label=N/A
                   Priority=100 Nice=0 Account=(null) QOS=(null)
                   JobState=RUNNING Reason=None Dependency=(null)
                   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
                   RunTime=00:02:05 TimeLimit=01:00:00 TimeMin=N/A
                   SubmitTime=2026-11-22T11:50:00 EligibleTime=2026-11-22T11:50:00
                   AccrueTime=2026-11-22T11:50:00
                   StartTime=2026-11-22T11:57:55 EndTime=2026-11-22T12:57:55 Deadline=N/A
                   SuspendTime=None SecsPreSuspend=0 LastSchedEval=Unknown Scheduler=Main
                   Partition=debug AllocNode:Sid=login1:0
                   ReqNodeList=(null) ExcNodeList=(null)
                   NodeList=n[1-2]
                   BatchHost=n1
                   NumNodes=2 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
                   TRES=cpu=4,mem=4G,node=2,billing=4
                   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
                   MinCPUsNode=1 MinMemoryNode=2G MinTmpDiskNode=0
                   Features=(null) DelayBoot=00:00:00
                   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)
                   Command=(null)
                   WorkDir=/home/alice
                   StdErr=/home/alice/out-42.log
                   StdIn=/dev/null
                   StdOut=/home/alice/out-42.log
                   \n
                """, render(job));
    }

    @Test
    void resourceRequest_showsNodeLists_gres_features_memoryPerCpu_andContiguous() {
        Job job = running(aJob(43).setNumCpus(4).setNumTasks(4).setMemPerCpuMb(512).setNtasksPerNode(2)
                .addReqNodes("n1").addReqNodes("n2").addExcNodes("n3").setConstraint("intel&ib").setContiguous(true)
                .setExclusive(true).addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2)), 5, "n1", "n2")
                .build();
        String text = render(job);
        assertTrue(text.contains("   ReqNodeList=n[1-2] ExcNodeList=n3\n"), text);
        assertTrue(text.contains("   TRES=cpu=4,mem=2G,node=2,billing=4,gres/gpu=4\n   TresPerNode=gres/gpu:a100:2\n"), text);
        assertTrue(text.contains("NtasksPerN:B:S:C=2:0:*:*"), text);
        assertTrue(text.contains("   MinCPUsNode=1 MinMemoryCPU=512M MinTmpDiskNode=0\n"), text);
        assertTrue(text.contains("   Features=intel&ib DelayBoot=00:00:00\n"), text);
        assertTrue(text.contains("   OverSubscribe=NO Contiguous=1 "), text);
    }

    @Test
    void aPendingJobShowsUnknownTimesAndItsReason() {
        Job job = aJob(43).setReason("Resources").setTimeLimitSeconds(-1)
                .setSpec(aJob(43).getSpec().toBuilder().setMinNodes(2).setMaxNodes(4).setStderrPath("/tmp/%x.%u.err"))
                .setNumNodes(2).build();
        String text = render(job);
        assertTrue(text.contains("\n   JobState=PENDING Reason=Resources Dependency=(null)\n"), text);
        assertTrue(text.contains("\n   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A\n"), text);
        assertTrue(text.contains("\n   StartTime=Unknown EndTime=Unknown Deadline=N/A\n"), text);
        assertTrue(text.contains("\n   NodeList=\n   NumNodes=2-4 "), text); // Slurm: NodeList= (empty) while pending
        assertTrue(text.contains("\n   StdErr=/tmp/job43.alice.err\n"), text);
        assertTrue(text.contains("\n   StdOut=/home/alice/slurm-43.out\n"), text);
    }

    @Test
    void aCompletingJobShowsCompletingAndItsExitCode() {
        Job job = running(aJob(44), 30, "n3").setState(JobState.JOB_STATE_FAILED).setCompleting(true)
                .setReason("NonZeroExitCode").setExitCode(2).setExitSignal(0).build();
        String text = render(job);
        assertTrue(text.contains("JobState=COMPLETING Reason=NonZeroExitCode"), text);
        assertTrue(text.contains("ExitCode=2:0"), text);
    }

    @Test
    void reasonsWithSpacesAreJoinedByUnderscores() {
        Job job = aJob(45).setReason("launch failed requeued held").build();
        assertTrue(render(job).contains("Reason=launch_failed_requeued_held "));
    }

    @Test
    void oneLinerPutsTheRecordOnOneLine() {
        String text = new JobLayout(NOW, ZoneOffset.UTC, gid -> null, true).render(JobInfos.job(aJob(46).build()));
        assertTrue(text.startsWith("JobId=46 JobName=job46 UserId=alice(1000) GroupId=1000(1000) "), text);
        assertEquals(1, text.split("\n", -1).length - 1, "one newline, at the end");
    }

    @ParameterizedTest(name = "{0} expands to {1}")
    @CsvSource({
        "'', /home/alice/slurm-7.out",
        "out.%j, /home/alice/out.7",
        "/abs/%x-%u.txt, /abs/name-alice.txt",
        "%5j.log, /home/alice/00007.log",
        "100%%.txt, /home/alice/100%.txt",
        "%A.%N.log, /home/alice/7.%N.log",
        "%A_%a.out, /home/alice/7_4294967294.out",
    })
    void stdioPatterns(String pattern, String expected) {
        assertEquals(expected, StdioPath.expand(pattern, 7, "alice", "name", "/home/alice"));
    }

    @ParameterizedTest(name = "array task 12_3 (job 15): {0} expands to {1}")
    @CsvSource({
        "'', /home/alice/slurm-12_3.out",
        "out-%A_%a.log, /home/alice/out-12_3.log",
        "%j.%3a, /home/alice/15.003",
    })
    void stdioPatternsOfAnArrayTask(String pattern, String expected) {
        assertEquals(expected, StdioPath.expand(pattern, 15, 12, 3, "alice", "name", "/home/alice"));
    }

    @Test
    void jobControlFields_ofAPendingArrayTask() {
        Job job = aJob(15).setArrayJobId(12).setArrayTaskId(3).setArrayMaxRunning(2).setPriority(4000).setNice(50)
                .setAccount("physics").setQos("high").setReason("Dependency")
                .setDependency("afterok:9(unfulfilled)").setRequeue(false).setRestartCount(2)
                .setStartTime(at(NOW.plusSeconds(3600))).setSchedNodeList("n[1-2]").build();
        String text = render(job);
        assertTrue(text.startsWith("JobId=15 ArrayJobId=12 ArrayTaskId=3 ArrayTaskThrottle=2 JobName=job15\n"), text);
        assertTrue(text.contains("\n   Priority=4000 Nice=50 Account=physics QOS=high\n"), text);
        assertTrue(text.contains("\n   JobState=PENDING Reason=Dependency Dependency=afterok:9(unfulfilled)\n"), text);
        assertTrue(text.contains("\n   Requeue=0 Restarts=2 BatchFlag=1 Reboot=0 ExitCode=0:0\n"), text);
        assertTrue(text.contains("\n   StartTime=2026-11-22T13:00:00 EndTime=Unknown"), text);
        assertTrue(text.contains("\n   NodeList= SchedNodeList=n[1-2]\n"), text);
        assertTrue(text.contains("\n   StdOut=/home/alice/slurm-12_3.out\n"), text);
    }

    @Test
    void theArraysPendingRemainderShowsItsTaskSpec() {
        Job job = aJob(12).setArrayJobId(12).setArrayTaskSpec("5-99%10").build();
        assertTrue(render(job).startsWith("JobId=12 ArrayJobId=12 ArrayTaskId=5-99%10 JobName=job12\n"));
    }

    @Test
    void runTime_stopsWhileSuspended_andSuspendTimeShowsWhenTheSuspensionBegan() {
        Job job = running(aJob(47), 1000, "n1").setState(JobState.JOB_STATE_SUSPENDED)
                .setLastStateChange(at(NOW.minusSeconds(600))).build();
        String text = render(job);
        assertTrue(text.contains("\n   RunTime=00:06:40 "), text);
        assertTrue(text.contains("\n   SuspendTime=2026-11-22T11:50:00 SecsPreSuspend=400 "), text);
    }

    @Test
    void runTime_leavesOutTimeSpentSuspended_onceResumed() {
        Job job = running(aJob(49), 1000, "n1").setSuspendSeconds(300).setLastStateChange(at(NOW.minusSeconds(100))).build();
        assertTrue(render(job).contains("\n   RunTime=00:11:40 "), render(job)); // 1000 s - 300 s suspended
    }

    @Test
    void runTime_isTheControllersWhenItSendsOne() {
        // ran 2 s, suspended for the last 10 s: the controller says 2 s
        Job job = running(aJob(50), 12, "n1").setState(JobState.JOB_STATE_SUSPENDED)
                .setLastStateChange(at(NOW.minusSeconds(10))).setRunSeconds(2).setTimeUsedSeconds(2).build();
        String text = render(job);
        assertTrue(text.contains("\n   RunTime=00:00:02 "), text);
        assertTrue(text.contains("\n   SuspendTime=2026-11-22T11:59:50 SecsPreSuspend=2 "), text);
    }

    @Test
    void aResumedJob_showsWhenItWasResumed_andItsRunTimeBeforeThat() {
        // Slurm: SuspendTime is the last suspend or resume, SecsPreSuspend the run time before it
        Job job = running(aJob(51), 112, "n1").setSuspendSeconds(100).setRunSeconds(2)
                .setLastStateChange(at(NOW.minusSeconds(10))).setTimeUsedSeconds(12).build();
        String text = render(job);
        assertTrue(text.contains("\n   RunTime=00:00:12 "), text);
        assertTrue(text.contains("\n   SuspendTime=2026-11-22T11:59:50 SecsPreSuspend=2 "), text);
    }

    @Test
    void noSchedNodeListOnceRunning() {
        Job job = running(aJob(48), 10, "n1").setSchedNodeList("n2").build();
        assertTrue(render(job).contains("\n   NodeList=n1\n"));
    }
}
