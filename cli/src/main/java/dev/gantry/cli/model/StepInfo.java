package dev.gantry.cli.model;

import java.time.Instant;
import java.util.List;

/**
 * A job step as squeue -s and scontrol show step show it (Slurm's job_step_info_t).
 *
 * @param jobId its job's id
 * @param stepId "batch", "0", "1", …
 * @param name the step's name
 * @param partition its job's partition
 * @param user its job's user
 * @param start when it started; null when not known
 * @param nodes its nodes' names
 * @param numTasks tasks
 * @param numCpus CPUs
 * @param state its state as the controller names it (RUNNING)
 * @param timeUsedSeconds the controller's run time of the step (its job's suspensions left out); null when it sent none
 */
public record StepInfo(long jobId, String stepId, String name, String partition, String user, Instant start,
                       List<String> nodes, int numTasks, int numCpus, String state, Long timeUsedSeconds) {

    public StepInfo {
        nodes = List.copyOf(nodes);
    }
}
