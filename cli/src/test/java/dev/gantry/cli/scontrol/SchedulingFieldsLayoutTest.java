package dev.gantry.cli.scontrol;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.at;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * scontrol show job's scheduling fields as Slurm 22.05 prints them (checked against a real slurmctld): a pending job
 * that backfill estimated, and which pass last considered or started a job.
 */
class SchedulingFieldsLayoutTest {

    private static final JobLayout LAYOUT = new JobLayout(NOW, ZoneOffset.UTC, gid -> null, false);

    /** The record scontrol prints for {@code job}, as the controller sends it. */
    private static String render(Job job) {
        return LAYOUT.render(JobInfos.job(job));
    }

    /** Lines 9 to 16 of a record (StartTime … TRES), as Slurm numbers them. */
    private static List<String> schedulingLines(Job job) {
        List<String> lines = List.of(render(job).split("\n"));
        return lines.subList(8, 16);
    }

    @Test
    void aPendingJobBackfillEstimated() {
        // sbatch -N4 -t 10 --mem=1000 behind a 4-node job: backfill expects it at that job's end, on n[1-4]
        Job job = aJob(2).setReason("Resources").setTimeLimitSeconds(600).setNumNodes(4).setMaxNodes(4).setNumCpus(4)
                .setNumTasks(4).setMemPerNodeMb(1000).setSpec(aJob(2).getSpec().toBuilder().setMinNodes(4))
                .setStartTime(at(NOW.plusSeconds(278))).setEndTime(at(NOW.plusSeconds(878)))
                .setSchedNodeList("n[1-4]").setLastSchedEval(at(NOW.minusSeconds(5)))
                .setSchedByBackfill(true).setSchedInLastBackfill(true).build();
        // Slurm:
        //    StartTime=2026-11-27T10:12:38 EndTime=2026-11-27T10:22:38 Deadline=N/A
        //    SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-27T10:07:48 Scheduler=Backfill:*
        //    Partition=debug AllocNode:Sid=localhost:5345
        //    ReqNodeList=(null) ExcNodeList=(null)
        //    NodeList= SchedNodeList=n[1-4]
        //    NumNodes=4-4 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
        //    TRES=cpu=4,mem=4000M,node=4,billing=4
        assertEquals(List.of(
                "   StartTime=2026-11-22T12:04:38 EndTime=2026-11-22T12:14:38 Deadline=N/A",
                "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-22T11:59:55 Scheduler=Backfill:*",
                "   Partition=debug AllocNode:Sid=login1:0",
                "   ReqNodeList=(null) ExcNodeList=(null)",
                "   NodeList= SchedNodeList=n[1-4]",
                "   NumNodes=4-4 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:*",
                "   TRES=cpu=4,mem=4000M,node=4,billing=4",
                "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"), schedulingLines(job));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "evaluated by the main pass last                    | false | false | LastSchedEval=2026-11-22T11:59:00 Scheduler=Main",
        "by the backfill pass, the latest one               | true  | true  | LastSchedEval=2026-11-22T11:59:00 Scheduler=Backfill:*",
        "by a backfill pass, not the latest                 | true  | false | LastSchedEval=2026-11-22T11:59:00 Scheduler=Backfill",
    })
    void whichPassLastConsideredAPendingJob(String rule, boolean backfill, boolean latest, String shown) {
        Job job = aJob(3).setLastSchedEval(at(NOW.minusSeconds(60))).setSchedByBackfill(backfill)
                .setSchedInLastBackfill(latest).build();
        assertTrue(render(job).contains(" SecsPreSuspend=0 " + shown + "\n"), render(job));
    }

    @Test
    void aJobTheBackfillPassStarted_showsItAndItsStart() {
        // Slurm: LastSchedEval=2026-11-27T10:07:38 Scheduler=Backfill (its StartTime)
        Job job = running(aJob(1), 30, "n1").setLastSchedEval(at(NOW.minusSeconds(30))).setSchedByBackfill(true).build();
        assertTrue(render(job).contains(" LastSchedEval=2026-11-22T11:59:30 Scheduler=Backfill\n"),
                render(job));
    }

    @ParameterizedTest(name = "pending, {0}: NumNodes={4}")
    @CsvSource(delimiter = '|', value = {
        // Slurm: sbatch without -N prints NumNodes=1; -N1 1-1; -N4 4-4; -N2-4 with backfill expecting 4 nodes 4-4
        "no -N                    | 0 | 0 | 1 | 1",
        "-N1                      | 1 | 0 | 1 | 1-1",
        "-N4                      | 4 | 0 | 4 | 4-4",
        "-N2-4, expected on 4     | 2 | 4 | 4 | 4-4",
        "-N2-4, nothing expected  | 2 | 4 | 2 | 2-4",
    })
    void numNodesOfAPendingJob(String rule, int minAsked, int maxAsked, int numNodes, String shown) {
        var spec = aJob(4).getSpec().toBuilder();
        if (minAsked > 0) {
            spec.setMinNodes(minAsked);
        }
        if (maxAsked > 0) {
            spec.setMaxNodes(maxAsked);
        }
        Job job = aJob(4).setSpec(spec).setNumNodes(numNodes).setMaxNodes(Math.max(maxAsked, Math.max(minAsked, 1))).build();
        assertTrue(render(job).contains("\n   NumNodes=" + shown + " NumCPUs="), render(job));
    }
}
