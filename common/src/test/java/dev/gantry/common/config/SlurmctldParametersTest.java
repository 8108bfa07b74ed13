package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.SlurmctldParameters.RateLimit;
import dev.gantry.common.config.SlurmctldParameters.WatchLimits;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SlurmctldParameters: Slurm's rl_* names and defaults, Gantry's own watch_* caps, errors with their line. */
class SlurmctldParametersTest {

    static SlurmctldParameters parse(String value) {
        return ConfigParser.parse(Path.of("slurm.conf"), "SlurmctldParameters=" + value + "\n").get(Keys.SLURMCTLD_PARAMETERS);
    }

    @Test
    void unset_limitsEveryUserGenerously_andCapsWatchStreams() {
        SlurmctldParameters p = ConfigParser.parse(Path.of("slurm.conf"), "ClusterName=c\n").get(Keys.SLURMCTLD_PARAMETERS);
        assertEquals(new RateLimit(true, 500, 100, 1, 8192), p.rateLimit());
        assertEquals(new WatchLimits(256, 4096, 0), p.watch());
    }

    @Test
    void rlEnable_bringsSlurmsDefaults_forTheValuesNotGiven() {
        assertEquals(new RateLimit(true, 30, 2, 1, 8192), parse("rl_enable").rateLimit());
        assertEquals(new RateLimit(true, 30, 5, 2, 8192), parse("rl_enable,rl_refill_rate=5,rl_refill_period=2").rateLimit());
    }

    @Test
    void valuesWithoutRlEnable_changeGantrysDefaultLimit_andRlDisableTurnsItOff() {
        assertEquals(new RateLimit(true, 50, 100, 1, 16), parse("rl_bucket_size=50,rl_table_size=16").rateLimit());
        assertFalse(parse("rl_disable").rateLimit().enabled());
    }

    @Test
    void otherSlurmOptions_areKept_andWatchCapsRead() {
        SlurmctldParameters p = parse("enable_configless,watch_max_per_user=8,watch_max=100,watch_buffer_mb=64,idle_on_node_suspend");
        assertEquals(List.of("enable_configless", "idle_on_node_suspend"), p.others());
        assertEquals(new WatchLimits(8, 100, 64), p.watch());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "rl_bucket_size=abc|rl_bucket_size=abc: 'abc' is not a whole number",
        "rl_refill_rate=0|rl_refill_rate=0: must be between 1 and",
        "rl_refill_period|rl_refill_period: needs a value",
        "rl_enable;rl_disable|rl_enable and rl_disable contradict each other",
        "watch_max_per_user=10;watch_max=5|watch_max_per_user=10 is above watch_max=5"})
    void badValues_areRefusedNamingTheOption_withTheLine(String value, String message) {
        var e = assertThrows(ConfigException.class, () -> parse(value.replace(';', ',')));
        assertTrue(e.getMessage().startsWith("slurm.conf:1: SlurmctldParameters"), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
