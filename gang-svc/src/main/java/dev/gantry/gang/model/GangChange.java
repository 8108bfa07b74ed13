package dev.gantry.gang.model;

/**
 * One event of the controller's stream as {@link GangReplica} applies it (the runtime maps the stream's messages to
 * these): an allocation added or changed, an allocation released, or anything else, which changes no job.
 */
public sealed interface GangChange {

    /** An allocation added or changed: the job now holds resources in {@code holding.partition()}. */
    record Held(HeldAllocation holding) implements GangChange {}

    /** The job's allocation is gone. */
    record Released(long jobId) implements GangChange {}

    /** A node changed, or a kind this build does not know: nothing changes who shares a partition. */
    record Unrelated() implements GangChange {}

    /** Whether this counts as an allocation event (added, changed or released). */
    default boolean isAllocation() {
        return switch (this) {
            case Held h -> true;
            case Released r -> true;
            case Unrelated u -> false;
        };
    }
}
