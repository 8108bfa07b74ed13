/**
 * What the controller reports, as the commands' cores read it: a job ({@link dev.gantry.cli.model.JobInfo}), a node
 * ({@link dev.gantry.cli.model.NodeInfo}), a partition ({@link dev.gantry.cli.model.PartitionInfo}), a job step
 * ({@link dev.gantry.cli.model.StepInfo}), a pending job's priority factors and the weights
 * ({@link dev.gantry.cli.model.PriorityInfo}, {@link dev.gantry.cli.model.PriorityWeightsInfo}) and a fair-share row
 * ({@link dev.gantry.cli.model.ShareInfo}). Named after Slurm's job_info_t, node_info_t, partition_info_t and
 * job_step_info_t, which its commands print from (src/api/job_info.c and the others).
 *
 * <p>DATA: immutable records holding exactly the fields squeue, sinfo, scontrol, sprio and sshare print or decide by,
 * in the API's units (seconds, MiB, Slurm's -1 for UNLIMITED). Times are {@link java.time.Instant}s, null when the
 * controller left them unset ("not yet" / "unknown"); an optional count the controller may leave out is a boxed
 * number, null when absent. Lists and maps are copies and cannot be changed.
 *
 * <p>RULES: none beyond the values' own derived views (a job's host list, its run time at an instant). The mapping
 * from the API's messages is the adapter's, in {@code dev.gantry.cli.api}; nothing here knows gRPC or protobuf.
 */
package dev.gantry.cli.model;
