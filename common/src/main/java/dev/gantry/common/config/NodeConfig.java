package dev.gantry.common.config;

import dev.gantry.common.resources.GresSpec;
import java.util.List;

/**
 * One node from a NodeName= line (a line with a host list gives one per name).
 *
 * @param cpus logical CPUs the scheduler allocates
 * @param realMemoryMb memory in MiB
 * @param state the state the node starts in: UNKNOWN, IDLE, DOWN, DRAIN or FUTURE
 * @param features Features= names (case-sensitive, as Slurm)
 * @param gres Gres= resources, each named in GresTypes
 * @param port its agent's gRPC port, 0 = chosen by the launcher
 * @param line the config line that defined it
 */
public record NodeConfig(
        String name,
        String hostname,
        int cpus,
        int sockets,
        int coresPerSocket,
        int threadsPerCore,
        long realMemoryMb,
        List<String> features,
        List<GresSpec> gres,
        int weight,
        ConfiguredNodeState state,
        int port,
        int line) {}
