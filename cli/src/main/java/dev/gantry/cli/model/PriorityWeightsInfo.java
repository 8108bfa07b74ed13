package dev.gantry.cli.model;

import java.util.Map;

/**
 * The configured priority weights (PriorityWeightAge and the others) sprio -w shows and normalizes by.
 *
 * @param age PriorityWeightAge
 * @param fairshare PriorityWeightFairshare
 * @param jobSize PriorityWeightJobSize
 * @param partition PriorityWeightPartition
 * @param qos PriorityWeightQOS
 * @param tres PriorityWeightTRES by TRES name
 */
public record PriorityWeightsInfo(long age, long fairshare, long jobSize, long partition, long qos,
                              Map<String, Double> tres) {

    public PriorityWeightsInfo {
        tres = Map.copyOf(tres);
    }
}
