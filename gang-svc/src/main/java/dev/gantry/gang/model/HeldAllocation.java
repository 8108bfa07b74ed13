package dev.gantry.gang.model;

/** A job holding resources in a partition, running or suspended, as the controller reports it. */
public record HeldAllocation(long jobId, String partition, boolean suspended) {}
