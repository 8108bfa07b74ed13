package dev.gantry.select.placement;

/**
 * A reservation found on the profile but not yet held: {@code shape}'s job fits on {@code nodes} (first runs the
 * batch script) over [start, end), epoch seconds.
 */
record Found(Placement.Reservation reservation, JobShape shape, int[] nodes, long start, long end) {}
