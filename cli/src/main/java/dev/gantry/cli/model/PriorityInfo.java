package dev.gantry.cli.model;

import java.util.Map;

/**
 * One pending job's priority as sprio shows it (Slurm's priority_factors_object_t): each factor already multiplied by
 * its weight.
 *
 * @param jobId the job id
 * @param partition the partition the priority is for
 * @param user the job's user
 * @param account the job's account
 * @param qos the job's QOS
 * @param priority the total the queue is ordered by (an unsigned 64-bit value)
 * @param site the site factor
 * @param age the age factor
 * @param fairshare the fair-share factor
 * @param jobSize the job-size factor
 * @param partitionFactor the partition factor
 * @param qosFactor the QOS factor
 * @param nice the nice value (subtracted)
 * @param tres PriorityWeightTRES terms by TRES name (cpu, mem, gres/gpu)
 * @param adminSet an administrator fixed the priority: it is not computed from the factors
 */
public record PriorityInfo(long jobId, String partition, String user, String account, String qos, long priority,
                              double site, double age, double fairshare, double jobSize, double partitionFactor,
                              double qosFactor, long nice, Map<String, Double> tres, boolean adminSet) {

    public PriorityInfo {
        tres = Map.copyOf(tres);
    }
}
