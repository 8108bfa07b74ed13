package dev.gantry.scheduler.model;

/** Resources a job holds on one node. */
public record NodeShare(String node, int cpus, long memoryMb) {}
