package dev.gantry.cli.scontrol;

import dev.gantry.api.v1.Step;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.common.hostlist.Hostlist;
import java.time.ZoneId;

/**
 * {@code scontrol show step}: one step as Slurm's {@code slurm_sprint_job_step_info} prints it (StepId, UserId,
 * StartTime, TimeLimit; State, Partition, NodeList; Nodes, CPUs, Tasks, Name; Dist). Pure.
 */
public final class StepRecord {

    private StepRecord() {}

    public static String render(Step s, ZoneId zone, boolean oneLiner) {
        return new KeyValueRecord(oneLiner)
                .add("StepId=" + s.getJobId() + "." + s.getStepId() + " UserId=" + s.getUser()
                        + " StartTime=" + SlurmClock.scontrolTime(SlurmClock.instant(s.getStartTime()), zone) + " TimeLimit=UNLIMITED").newLine()
                .add("State=" + s.getState() + " Partition=" + s.getPartition() + " NodeList=" + Hostlist.compress(s.getNodesList())).newLine()
                .add("Nodes=" + s.getNodesCount() + " CPUs=" + s.getNumCpus() + " Tasks=" + s.getNumTasks() + " Name=" + s.getName()
                        + " Network=(null)").newLine()
                .add("Dist=Block")
                .end();
    }
}
