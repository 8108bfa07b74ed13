package dev.gantry.cli.sbatch;

import java.time.Instant;

/**
 * sbatch's job-control options as submitted ({@link ControlOptions} reads them); each null when not given.
 *
 * @param account -A
 * @param qos -q
 * @param nice --nice's adjustment
 * @param hold -H
 * @param begin --begin, resolved against the client's clock and zone, in whole seconds
 * @param dependency -d
 * @param array -a
 * @param requeue --requeue (true) or --no-requeue (false)
 */
public record BatchControls(String account, String qos, Integer nice, boolean hold, Instant begin, String dependency,
                          String array, Boolean requeue) {

    /** No job-control option given. */
    public static final BatchControls NONE = new BatchControls(null, null, null, false, null, null, null, null);
}
