package dev.gantry.scheduler.priority;

/**
 * What the priority of one pending job in one partition depends on.
 *
 * @param eligibleEpochSecond when the job became eligible (submit, or --begin, or when its dependencies were met);
 *     {@link #NOT_ELIGIBLE} while it is not, which keeps its age factor at 0
 * @param tres what the job requests (CPUs, memory in MiB, nodes, GRES)
 * @param nice the job's nice value, subtracted from the total
 * @param site the site factor (set by an administrator; 0 by default), added as is
 */
public record PriorityInput(long jobId, String user, String account, String partition, String qos,
        long eligibleEpochSecond, TresAmount tres, long nice, long site) {

    /** An eligible time meaning "not eligible yet". */
    public static final long NOT_ELIGIBLE = Long.MAX_VALUE;
}
