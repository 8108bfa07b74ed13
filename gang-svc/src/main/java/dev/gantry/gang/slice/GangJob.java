package dev.gantry.gang.slice;

import dev.gantry.common.overlap.Holding;
import java.time.Instant;

/**
 * One job as the timeslicer tracks it. Three states are kept apart:
 * <ul>
 *   <li>{@code running}: what gang-svc decided (its active set), the state rotation works on;</li>
 *   <li>{@code observedSuspended}: what the controller last reported on the event stream;</li>
 *   <li>{@code requested}: the state last sent to the controller whose event has not arrived yet (null when
 *       nothing is in flight); an event that matches it is gang-svc's own, any other change is someone else's.</li>
 * </ul>
 * A job suspended by someone else (an administrator, or a resume the controller refused) is {@code held}: it is left
 * out of every active set, as Slurm leaves out jobs suspended by hand, until it is seen running again.
 * <p>
 * A running job is either <em>active</em> (it joined the active set at a rotation) or a <em>filler</em> (it started,
 * or was resumed, between rotations: Slurm's GS_FILLER row state in src/slurmctld/gang.c). The next rotation moves
 * active jobs to the end of the list but leaves a filler in its place, where it becomes active: so every running job
 * keeps the CPUs for at least one whole SchedulerTimeSlice, and a job suspended on arrival gets its first turn only
 * after the running job's slice (one to two slices after it arrived).
 * Mutable, confined to its {@link Timeslicer}.
 */
final class GangJob {

    final long id;
    String partition;
    Holding holding;
    boolean running;
    boolean observedSuspended;
    boolean held;
    /** Running since it started or was resumed between rotations (Slurm's GS_FILLER); meaningless while suspended. */
    boolean filler;
    Boolean requested;
    /** When gang-svc last decided (or, after a rebuild, first saw) that it is suspended. */
    Instant suspendedSince;

    GangJob(long id, String partition, Holding holding, boolean suspended, Instant now) {
        this.id = id;
        this.partition = partition;
        this.holding = holding;
        this.running = !suspended;
        this.filler = !suspended;
        this.observedSuspended = suspended;
        this.suspendedSince = suspended ? now : null;
    }

    /** Takes part in rotation: not held by someone else. */
    boolean rotates() {
        return !held;
    }

    /** gang-svc's decision differs from what the controller reports, and no request in flight carries it. */
    boolean outstanding() {
        return !held && running == observedSuspended && (requested == null || requested != running);
    }
}
