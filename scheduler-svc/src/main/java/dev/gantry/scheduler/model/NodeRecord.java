package dev.gantry.scheduler.model;

import dev.gantry.common.config.ConfiguredNodeState;
import dev.gantry.common.config.NodeConfig;
import java.time.Instant;

/**
 * A node as the controller holds it. Immutable; the controller replaces it on every change.
 *
 * @param registered its agent has registered since the controller started
 * @param down set DOWN (by an administrator, the config, or a failure); {@code reason} says why
 * @param notResponding heartbeats stopped for SlurmdTimeout
 * @param agentAddress host:port of its agent's NodeAgent service (the agent's internal, mutual-TLS port)
 * @param stepAddress host:port of its agent's StepAgent service, where srun connects (the agent's public port)
 */
public record NodeRecord(
        NodeConfig config,
        boolean registered,
        boolean down,
        boolean drain,
        boolean notResponding,
        String reason,
        String agentAddress,
        String stepAddress,
        Instant lastSeen,
        Instant bootTime,
        int allocCpus,
        long allocMemoryMb) {

    /** A node as configured, before its agent registers. */
    public static NodeRecord configured(NodeConfig config) {
        boolean down = config.state() == ConfiguredNodeState.DOWN;
        boolean drain = config.state() == ConfiguredNodeState.DRAIN;
        return new NodeRecord(config, false, down, drain, false, down || drain ? "set in config" : "", "", "", null, null, 0, 0);
    }

    public String name() {
        return config.name();
    }

    /** New jobs may be placed here. */
    public boolean usable() {
        return registered && !down && !drain && !notResponding;
    }

    public int freeCpus() {
        return config.cpus() - allocCpus;
    }

    public long freeMemoryMb() {
        return config.realMemoryMb() - allocMemoryMb;
    }

    /** Base state as sinfo shows it (drain and not-responding are flags). */
    public NodeBaseState baseState() {
        if (down || notResponding) {
            return NodeBaseState.DOWN;
        }
        if (!registered) {
            return NodeBaseState.UNKNOWN;
        }
        if (allocCpus == 0) {
            return NodeBaseState.IDLE;
        }
        return allocCpus >= config.cpus() ? NodeBaseState.ALLOCATED : NodeBaseState.MIXED;
    }

    public NodeRecord withAllocation(int cpus, long memoryMb) {
        return new NodeRecord(config, registered, down, drain, notResponding, reason, agentAddress, stepAddress, lastSeen,
                bootTime, cpus, memoryMb);
    }

    /** Registered with its agent's NodeAgent and StepAgent at {@code address} (one port serving both, as in tests). */
    public NodeRecord registeredAt(String address, Instant now, Instant boot, boolean drainIt, String drainReason) {
        return registeredAt(address, address, now, boot, drainIt, drainReason);
    }

    public NodeRecord registeredAt(String address, String stepAddress, Instant now, Instant boot, boolean drainIt, String drainReason) {
        return new NodeRecord(config, true, down && !reason.equals("Not responding") ? down : false,
                drain || drainIt, false, drainIt ? drainReason : (notResponding ? "" : reason), address, stepAddress, now, boot,
                allocCpus, allocMemoryMb);
    }

    public NodeRecord seenAt(Instant now) {
        return new NodeRecord(config, registered, down, drain, false, notResponding ? "" : reason, agentAddress, stepAddress,
                now, bootTime, allocCpus, allocMemoryMb);
    }

    public NodeRecord notRespondingSince(String why) {
        return new NodeRecord(config, registered, down, drain, true, why, agentAddress, stepAddress, lastSeen, bootTime,
                allocCpus, allocMemoryMb);
    }

    /** The node's states as Slurm writes them in scontrol (IDLE, MIXED+DRAIN, DOWN*, …). */
    public enum NodeBaseState { UNKNOWN, IDLE, MIXED, ALLOCATED, DOWN }
}
