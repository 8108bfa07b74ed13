package dev.gantry.scheduler.preempt;

/**
 * Memory facts of one node, for deciding whether a suspended victim's memory fits beside its preemptor.
 *
 * @param capacityMb the node's memory for jobs (RealMemory less specialized memory), MiB; 0 = memory not tracked
 *     (everything fits)
 * @param heldMb memory held now by every job that holds resources there, running or suspended, victims included
 */
public record NodeMemory(String node, long capacityMb, long heldMb) {}
