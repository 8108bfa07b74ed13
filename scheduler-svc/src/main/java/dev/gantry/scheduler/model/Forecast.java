package dev.gantry.scheduler.model;

import java.time.Instant;
import java.util.List;

/**
 * Where and when backfill expects a pending job to start (Slurm's StartTime and SchedNodeList while pending).
 *
 * @param reserved the resources are held for it: lower jobs may not delay it
 */
public record Forecast(Instant start, List<String> nodes, boolean reserved) {
    public Forecast {
        nodes = List.copyOf(nodes);
    }
}
