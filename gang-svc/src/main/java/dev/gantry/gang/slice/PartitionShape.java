package dev.gantry.gang.slice;

/**
 * A partition as the timeslicer needs it: its PriorityTier (higher tiers cast shadows on lower ones) and whether gang
 * scheduling applies to it ({@link GangSettings#gangFor}).
 */
public record PartitionShape(String name, int priorityTier, boolean gang) {}
