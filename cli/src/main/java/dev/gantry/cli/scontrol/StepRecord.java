package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.StepInfo;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.common.hostlist.Hostlist;
import java.time.ZoneId;

/**
 * {@code scontrol show step}: one step as Slurm's {@code slurm_sprint_job_step_info} prints it (StepId, UserId,
 * StartTime, TimeLimit; State, Partition, NodeList; Nodes, CPUs, Tasks, Name; Dist). Pure.
 */
public final class StepRecord {

    private StepRecord() {}

    public static String render(StepInfo s, ZoneId zone, boolean oneLiner) {
        return new KeyValueRecord(oneLiner)
                .add("StepId=" + s.jobId() + "." + s.stepId() + " UserId=" + s.user()
                        + " StartTime=" + SlurmClock.scontrolTime(s.start(), zone) + " TimeLimit=UNLIMITED").newLine()
                .add("State=" + s.state() + " Partition=" + s.partition() + " NodeList="
                        + Hostlist.compress(s.nodes())).newLine()
                .add("Nodes=" + s.nodes().size() + " CPUs=" + s.numCpus() + " Tasks=" + s.numTasks()
                        + " Name=" + s.name() + " Network=(null)").newLine()
                .add("Dist=Block")
                .end();
    }
}
