package dev.gantry.cli.model;

/**
 * Usage that would change a fair-share factor, as alternatives in one kind of resource each; a value of 0 or less
 * means that resource cannot do it alone.
 *
 * @param cpuHours CPU-hours
 * @param gpuHours GPU-hours
 * @param gbHours memory GiB-hours
 * @param never no amount does it
 */
public record UsageInfo(double cpuHours, double gpuHours, double gbHours, boolean never) {}
