package dev.gantry.cli.model;

import java.time.Instant;
import java.util.List;

/**
 * A node as sinfo and scontrol show it (Slurm's node_info_t).
 *
 * @param name the node's name
 * @param state the base state
 * @param drain drained or draining: no new jobs
 * @param notResponding its heartbeats stopped
 * @param reason why it is down or drained; "" when none
 * @param cpus CPUs configured
 * @param sockets sockets
 * @param coresPerSocket cores per socket
 * @param threadsPerCore hardware threads per core
 * @param realMemoryMb memory in MiB
 * @param allocCpus CPUs allocated to jobs
 * @param allocMemoryMb MiB allocated to jobs
 * @param partitions the partitions it is in
 * @param agentAddress host:port of its node agent once registered; else ""
 * @param bootTime when it booted; null when not known
 * @param weight Weight=: lower is allocated first
 * @param features its features
 * @param gres its configured generic resources
 * @param allocGres the generic resources allocated to jobs
 */
public record NodeInfo(String name, NodeStatus state, boolean drain, boolean notResponding, String reason, int cpus,
                       int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb, int allocCpus,
                       long allocMemoryMb, List<String> partitions, String agentAddress, Instant bootTime, int weight,
                       List<String> features, List<GresInfo> gres, List<GresInfo> allocGres) {

    public NodeInfo {
        partitions = List.copyOf(partitions);
        features = List.copyOf(features);
        gres = List.copyOf(gres);
        allocGres = List.copyOf(allocGres);
    }
}
