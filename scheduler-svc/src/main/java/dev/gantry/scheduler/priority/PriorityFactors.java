package dev.gantry.scheduler.priority;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * One job's priority in one partition and its weighted parts: the fields sprio prints (JOBID PARTITION USER PRIORITY
 * SITE AGE FAIRSHARE JOBSIZE PARTITION QOS NICE TRES, https://slurm.schedmd.com/sprio.html). Each factor is already
 * multiplied by its weight; {@code tres} holds PriorityWeightTRES terms by TRES name.
 *
 * @param priority site + age + fairshare + jobSize + partitionFactor + qosFactor + Σ tres − nice, truncated to a
 *     whole number and kept within 1..4294967295 (0 is reserved for held jobs, as in Slurm)
 */
public record PriorityFactors(long jobId, String partition, String user, String account, String qos, long priority,
        double site, double age, double fairshare, double jobSize, double partitionFactor, double qosFactor, long nice,
        Map<String, Double> tres) {

    public PriorityFactors {
        tres = Map.copyOf(tres);
    }

    /** The TRES column as sprio prints it: {@code cpu=400,mem=160} (whole numbers, in PriorityWeightTRES order). */
    public String tresText(java.util.List<String> order) {
        return order.stream().filter(tres::containsKey)
                .map(name -> name + "=" + (long) Math.floor(tres.get(name)))
                .collect(Collectors.joining(","));
    }
}
