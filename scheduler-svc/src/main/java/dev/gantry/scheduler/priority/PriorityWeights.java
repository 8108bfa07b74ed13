package dev.gantry.scheduler.priority;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.TresWeights;
import java.util.List;

/**
 * The multifactor settings of a config (https://slurm.schedmd.com/priority_multifactor.html#config): the weights,
 * PriorityMaxAge, PriorityFavorSmall and the NO_NORMAL_* PriorityFlags.
 *
 * @param tres PriorityWeightTRES (memory weight per MiB; {@code Mem=20G} is 20 per GiB)
 * @param normalizeTres false with NO_NORMAL_TRES: a TRES factor is the job's count itself, not its share of the
 *     partition's, so {@code PriorityWeightTRES=CPU=100,Mem=20G} adds 100 per CPU and 20 per GiB
 */
public record PriorityWeights(long age, long fairshare, long jobSize, long partition, long qos, TresWeights tres,
        long maxAgeSeconds, boolean favorSmall, boolean normalizeTres, boolean normalizePartition,
        boolean normalizeQos) {

    public static PriorityWeights of(ClusterConfig config) {
        List<String> flags = config.get(Keys.PRIORITY_FLAGS);
        return new PriorityWeights(config.get(Keys.PRIORITY_WEIGHT_AGE), config.get(Keys.PRIORITY_WEIGHT_FAIRSHARE),
                config.get(Keys.PRIORITY_WEIGHT_JOB_SIZE), config.get(Keys.PRIORITY_WEIGHT_PARTITION),
                config.get(Keys.PRIORITY_WEIGHT_QOS), config.get(Keys.PRIORITY_WEIGHT_TRES),
                config.get(Keys.PRIORITY_MAX_AGE), config.get(Keys.PRIORITY_FAVOR_SMALL),
                !flags.contains("NO_NORMAL_TRES"), !flags.contains("NO_NORMAL_PART"), !flags.contains("NO_NORMAL_QOS"));
    }
}
