package dev.gantry.agent.node;

import java.time.Instant;

/**
 * How this node introduces itself in RegisterNode.
 *
 * @param agentAddress host:port where the controller reaches this agent's NodeAgent service (its internal port)
 * @param stepAddress host:port where srun reaches its StepAgent service (its public port)
 * @param bootTime when this agent started: an emulated node boots with its agent, and jobs started before it
 *     are not its own
 */
public record NodeIdentity(String name, String agentAddress, String stepAddress, Hardware hardware, Instant bootTime, String version) {}
