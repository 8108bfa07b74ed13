package dev.gantry.scheduler.preempt;

import dev.gantry.scheduler.model.JobRecord;

/**
 * A job as preemption sees it: the record, the partition it runs in (or, for a preemptor, would run in) and how
 * exclusively it holds its nodes.
 */
public record Contender(JobRecord job, String partition, Exclusivity exclusivity) {

    /**
     * A job in its record's partition. Fully exclusive when it asked --exclusive or its partition is
     * OverSubscribe=EXCLUSIVE; user-exclusive when it asked --exclusive=user or its partition is ExclusiveUser=YES.
     *
     * @param exclusiveUser the job asked --exclusive=user ({@link PreemptionPlanner#askedExclusiveUser})
     */
    public static Contender of(JobRecord job, PreemptSettings settings, boolean exclusiveUser) {
        return in(job, job.partition(), settings, exclusiveUser);
    }

    /** The same, for a job considered in {@code partition} (a pending job with several candidate partitions). */
    public static Contender in(JobRecord job, String partition, PreemptSettings settings, boolean exclusiveUser) {
        PartitionRule p = settings.partition(partition);
        boolean whole = (job.ask() != null && job.ask().selection() != null && job.ask().selection().exclusive())
                || p.wholeNodes();
        Exclusivity e = whole ? Exclusivity.NODE
                : exclusiveUser || p.exclusiveUser() ? Exclusivity.USER : Exclusivity.SHARED;
        return new Contender(job, partition, e);
    }

    public long id() {
        return job.id();
    }
}
