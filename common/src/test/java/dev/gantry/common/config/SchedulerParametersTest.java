package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SchedulerParameters= and PreemptParameters=, parsed at load: values, errors with file:line, warnings for the rest. */
class SchedulerParametersTest {

    private static ClusterConfig parse(String text) {
        return ConfigParser.parse(Path.of("slurm.conf"), text);
    }

    private static List<String> problems(String text) {
        return assertThrows(ConfigException.class, () -> parse(text)).problems();
    }

    @Test
    void backfillOptions_slurmsNamesAndUnits_andGantrysReserveMode() {
        SchedulerParameters p = parse("SchedulerParameters=bf_window=2880,bf_resolution=120,bf_max_job_test=1000,"
                + "bf_continue,bf_min_prio_reserve=3000,bf_interval=10,bf_reserve=easy").get(Keys.SCHEDULER_PARAMETERS);
        assertEquals(new BackfillSettings(2880 * 60, 120, 1000, true, 3000, 10, true), p.backfill());
        assertEquals(List.of(), p.ignored());
    }

    @Test
    void nothingGiven_isSlurmsBackfillDefaults_exceptTheWholeQueueIsTested_andAFiveSecondMainPass() {
        SchedulerParameters p = parse("").get(Keys.SCHEDULER_PARAMETERS);
        assertEquals(new BackfillSettings(86_400, 60, 0, false, 0, 30, false), p.backfill());
        assertEquals(5, p.schedIntervalSeconds());
        assertEquals(1001, p.maxArrayTasks(1001));
        assertEquals(4 << 20, p.maxScriptBytes());
    }

    @ParameterizedTest(name = "max_script_size={0}")
    @CsvSource({"1", "1048576", "4194304", "134217728"})
    void maxScriptSize_isBytes_upToGantrysBound_andUsedNotWarnedAbout(int bytes) {
        ClusterConfig c = parse("SchedulerParameters=max_script_size=" + bytes);
        assertEquals(bytes, c.get(Keys.SCHEDULER_PARAMETERS).maxScriptBytes());
        assertEquals(List.of(), c.warnings());
    }

    @Test
    void schedInterval_andMaxArrayTasks() {
        SchedulerParameters p = parse("SchedulerParameters=sched_interval=60,max_array_tasks=100")
                .get(Keys.SCHEDULER_PARAMETERS);
        assertEquals(60, p.schedIntervalSeconds());
        assertEquals(100, p.maxArrayTasks(1001));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "bf_window=0|slurm.conf:2: SchedulerParameters: bf_window=0: must be between 1 and 43200",
            "bf_resolution=x|slurm.conf:2: SchedulerParameters: bf_resolution=x: 'x' is not a whole number",
            "bf_reserve=greedy|slurm.conf:2: SchedulerParameters: bf_reserve=greedy: must be easy or conservative",
            "bf_interval=0|slurm.conf:2: SchedulerParameters: bf_interval=0: must be between 1 and 10800",
            "bf_max_job_test|slurm.conf:2: SchedulerParameters: bf_max_job_test: needs a value",
            "sched_interval=0|slurm.conf:2: SchedulerParameters: sched_interval=0: must be between 1 and 86400",
            "sched_interval=-1|slurm.conf:2: SchedulerParameters: sched_interval=-1: Gantry always runs its main "
                    + "scheduling pass (Slurm's -1 turns it off); give seconds between 1 and 86400",
            "max_array_tasks=0|slurm.conf:2: SchedulerParameters: max_array_tasks=0: must be between 1 and 4000001",
            "max_script_size=0|slurm.conf:2: SchedulerParameters: max_script_size=0: must be between 1 and 134217728 "
                    + "bytes (128 MiB: Gantry's bound, where Slurm's is 512 MiB; docs/slurm-differences.md)",
            "max_script_size=4M|slurm.conf:2: SchedulerParameters: max_script_size=4M: '4M' is not a whole number",
            "max_script_size|slurm.conf:2: SchedulerParameters: max_script_size: needs a value",
            "max_script_size=134217729|slurm.conf:2: SchedulerParameters: max_script_size=134217729: must be between 1 "
                    + "and 134217728 bytes (128 MiB: Gantry's bound, where Slurm's is 512 MiB; docs/slurm-differences.md)",
            "max_script_size=536870912|slurm.conf:2: SchedulerParameters: max_script_size=536870912: must be between 1 "
                    + "and 134217728 bytes (128 MiB: Gantry's bound, where Slurm's is 512 MiB; docs/slurm-differences.md)",
            "preempt_reorder_count=-1|slurm.conf:2: SchedulerParameters: preempt_reorder_count=-1: must be between 0 "
                    + "and 64"})
    void badValues_areRefusedWithFileLineKeyAndOption(String item, String problem) {
        assertEquals(List.of(problem), problems("ClusterName=c\nSchedulerParameters=" + item));
    }

    @Test
    void unknownOptions_areAcceptedWithAWarningNamingTheLine_slurmsOwnAndMisspeltAlike() {
        ClusterConfig c = parse("ClusterName=c\nSchedulerParameters=default_queue_depth=100,bf_windw=60,bf_interval=5");
        assertEquals(List.of(
                "slurm.conf:2: SchedulerParameters: 'default_queue_depth=100' is a Slurm option Gantry does not use; "
                        + "ignored",
                "slurm.conf:2: SchedulerParameters: 'bf_windw=60' is not an option Gantry or Slurm knows; ignored"),
                c.warnings());
        assertEquals(5, c.get(Keys.SCHEDULER_PARAMETERS).backfill().intervalSeconds());
    }

    @Test
    void slurmctldParameters_unusedOptionsWarnToo() {
        ClusterConfig c = parse("SlurmctldParameters=enable_configless,rl_enable");
        assertEquals(List.of("slurm.conf:1: SlurmctldParameters: 'enable_configless' is not an option Gantry uses; "
                + "ignored"), c.warnings());
    }

    @Test
    void preemptParameters_andSlurmsOlderSchedulerParametersNames() {
        assertEquals(new PreemptParameters(true, true, 3, 500, true), parse("PreemptParameters=youngest_first,"
                + "strict_order,reorder_count=3,min_exempt_priority=500,send_user_signal").get(Keys.PREEMPT_PARAMETERS));
        assertEquals(new PreemptParameters(true, true, 2, -1, false), parse("SchedulerParameters=bf_window=60,"
                + "preempt_youngest_first,preempt_strict_order,preempt_reorder_count=2").get(Keys.PREEMPT_PARAMETERS));
        assertEquals(PreemptParameters.DEFAULT, parse("SchedulerParameters=bf_window=60").get(Keys.PREEMPT_PARAMETERS));
    }

    @Test
    void preemptParametersReorderCount_winsOverTheOlderName_whicheverLineComesFirst() {
        assertEquals(4, parse("PreemptParameters=reorder_count=4\nSchedulerParameters=preempt_reorder_count=2")
                .get(Keys.PREEMPT_PARAMETERS).reorderCount());
        assertEquals(0, parse("SchedulerParameters=preempt_reorder_count=2\nPreemptParameters=reorder_count=0")
                .get(Keys.PREEMPT_PARAMETERS).reorderCount());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "oldest_first|slurm.conf:1: PreemptParameters: 'oldest_first' is not one of youngest_first, strict_order, "
                    + "reorder_count=N, min_exempt_priority=N, send_user_signal",
            "reorder_count=x|slurm.conf:1: PreemptParameters: reorder_count=x: 'x' is not a whole number",
            "reorder_count=65|slurm.conf:1: PreemptParameters: reorder_count=65: must be between 0 and 64",
            "min_exempt_priority=-5|slurm.conf:1: PreemptParameters: min_exempt_priority=-5: must be between 0 and "
                    + "4294967294"})
    void badPreemptParameters_areRefusedWithFileLineKeyAndOption(String item, String problem) {
        assertEquals(List.of(problem), problems("PreemptParameters=" + item));
    }
}
