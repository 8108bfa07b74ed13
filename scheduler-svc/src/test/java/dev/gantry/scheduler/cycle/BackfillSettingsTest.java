package dev.gantry.scheduler.cycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BackfillSettingsTest {

    @Test
    void slurmsNamesAndUnits_andGantrysReserveMode() {
        var s = BackfillSettings.parse(List.of("bf_window=2880", "bf_resolution=120", "bf_max_job_test=1000",
                "bf_continue", "bf_min_prio_reserve=3000", "bf_interval=10", "bf_reserve=easy", "default_queue_depth=100"));
        assertEquals(new BackfillSettings(2880 * 60, 120, 1000, true, 3000, 10, true), s);
    }

    @Test
    void nothingGiven_isSlurmsDefaults_exceptTheWholeQueueIsTested() {
        assertEquals(new BackfillSettings(86_400, 60, 0, false, 0, 30, false), BackfillSettings.parse(List.of()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bf_window=0|SchedulerParameters: bf_window=0: must be between 1 and 43200",
            "bf_resolution=x|SchedulerParameters: bf_resolution=x: 'x' is not a whole number",
            "bf_reserve=greedy|SchedulerParameters: bf_reserve=greedy: must be easy or conservative",
            "bf_interval=0|SchedulerParameters: bf_interval=0: must be between 1 and 10800"})
    void badValues_areRefusedNamingTheOption(String item, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class,
                () -> BackfillSettings.parse(List.of(item))).getMessage());
    }
}
