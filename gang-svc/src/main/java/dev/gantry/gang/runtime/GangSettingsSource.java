package dev.gantry.gang.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.Keys;
import dev.gantry.gang.slice.GangSettings;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's PreemptMode and SchedulerTimeSlice. The event stream's snapshot does not carry them (only each
 * partition's own PreemptMode), so they come from the config file named by GANTRY_CONFIG, the one scheduler-svc
 * reads. Without it gang scheduling is off except in partitions whose own PreemptMode names GANG, with Slurm's
 * default slice of 30 s. A config that does not parse stops gang-svc (ConfigException, with file:line).
 */
@Factory
final class GangSettingsSource {

    private static final Logger LOG = LoggerFactory.getLogger(GangSettingsSource.class);

    @Singleton
    GangSettings gangSettings(@Value("${gantry.config:}") String configPath) {
        if (configPath.isBlank()) {
            LOG.warn("GANTRY_CONFIG is not set: the cluster PreemptMode is unknown, so only partitions whose own "
                    + "PreemptMode has GANG are time-sliced, every {} s", GangSettings.DEFAULT_TIME_SLICE.toSeconds());
            return GangSettings.OFF;
        }
        ClusterConfig config = ConfigParser.parse(Path.of(configPath));
        GangSettings settings = GangSettings.of(config.get(Keys.PREEMPT_MODE), config.get(Keys.SCHEDULER_TIME_SLICE));
        LOG.info("PreemptMode={} SchedulerTimeSlice={}s from {}: cluster-wide gang scheduling {}", config.get(Keys.PREEMPT_MODE),
                settings.timeSlice().toSeconds(), configPath, settings.clusterGang() ? "on" : "off");
        return settings;
    }
}
