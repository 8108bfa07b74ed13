package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.common.config.ConfigException;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.common.config.PreemptParameters;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** PreemptType, PreemptMode (cluster, partition, QOS), the Moab limits and PreemptParameters, as Slurm checks them. */
class PreemptSettingsTest {

    private static final String PART = "PreemptType=preempt/partition_prio\n";
    private static final String QOS = "PreemptType=preempt/qos\n";

    @Test
    void nothingConfigured_isPreemptionOff_withMoabsThirtyTwoVictims() {
        PreemptSettings s = settings("");
        assertEquals(PreemptType.NONE, s.type());
        assertEquals(PreemptMode.OFF, s.clusterMode());
        assertEquals(32, s.maxVictims());
        assertEquals(List.of(0L, 0L, 0L), List.of(s.exemptSeconds(), s.minActiveSeconds(), s.maxActiveSeconds()));
        assertEquals(PreemptParameters.DEFAULT, s.parameters());
        assertEquals(false, s.enabled());
    }

    @Test
    void partitionTiers_theIssuesThreeModes_eachPartitionsModeElseTheClusters() {
        PreemptSettings s = settings(PART + """
                PreemptMode=SUSPEND,GANG
                PartitionName=low Nodes=n1 PriorityTier=10 PreemptMode=requeue GraceTime=30
                PartitionName=med Nodes=n1 PriorityTier=20 PreemptMode=suspend
                PartitionName=hi Nodes=n1 PriorityTier=30 PreemptMode=off
                PartitionName=plain Nodes=n1
                """);
        assertEquals(new PreemptMode(PreemptAction.SUSPEND, true, false), s.clusterMode());
        assertEquals(PreemptAction.REQUEUE, s.modeOf(aJob(1).partition("low").build()).action());
        assertEquals(PreemptAction.SUSPEND, s.modeOf(aJob(2).partition("med").build()).action());
        assertEquals(PreemptAction.OFF, s.modeOf(aJob(3).partition("hi").build()).action());
        assertEquals(s.clusterMode(), s.modeOf(aJob(4).partition("plain").build()));
        assertEquals(30, s.graceOf(aJob(1).partition("low").build()));
        assertEquals(List.of(10, 20, 30, 1), List.of(s.partition("low").tier(), s.partition("med").tier(),
                s.partition("hi").tier(), s.partition("plain").tier()));
    }

    @Test
    void qos_modeGraceAndExemptTimeComeFromTheVictimsQos_OffMeaningTheClusters() {
        PreemptSettings s = settings(QOS + """
                PreemptMode=REQUEUE
                PreemptExemptTime=2
                QOS=high Priority=100 Preempt=normal,scav,lazy GraceTime=60
                QOS=scav PreemptMode=cancel GraceTime=10 PreemptExemptTime=00:10:00
                QOS=lazy PreemptMode=off
                """);
        assertEquals(PreemptAction.CANCEL, s.modeOf(aJob(1).qos("scav").build()).action());
        assertEquals(PreemptAction.REQUEUE, s.modeOf(aJob(2).qos("normal").build()).action());
        assertEquals(PreemptAction.REQUEUE, s.modeOf(aJob(3).qos("lazy").build()).action(), "OFF is CLUSTER in Slurm");
        assertEquals(10, s.graceOf(aJob(1).qos("scav").build()));
        assertEquals(600, s.exemptSecondsOf(aJob(1).qos("scav").build()));
        assertEquals(120, s.exemptSecondsOf(aJob(2).qos("normal").build()), "PreemptExemptTime=2 is minutes");
        assertEquals(java.util.Set.of("normal", "scav", "lazy"), s.qos("high").preempts());
        assertEquals("normal", s.qos("").name());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "PreemptMinActiveTime=90|minActive|90",
            "PreemptMinActiveTime=1:30|minActive|90",
            "PreemptMaxActiveTime=1-00:00:00|maxActive|86400",
            "PreemptMaxVictims=4|maxVictims|4",
            "PreemptExemptTime=5|exempt|300",
            "PreemptExemptTime=UNLIMITED|exempt|0"})
    void timesAndCounts(String line, String field, long expected) {
        PreemptSettings s = settings(PART + "PreemptMode=REQUEUE\n" + line + "\n");
        long actual = switch (field) {
            case "minActive" -> s.minActiveSeconds();
            case "maxActive" -> s.maxActiveSeconds();
            case "maxVictims" -> s.maxVictims();
            default -> s.exemptSeconds();
        };
        assertEquals(expected, actual);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "PreemptType=preempt/partition_prio\\nPreemptMode=SUSPEND,GANG",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE,GANG",
            "PreemptType=preempt/partition_prio\\nPreemptMode=CANCEL",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE,WITHIN",
            "PreemptType=preempt/qos\\nPreemptMode=SUSPEND,GANG\\nQOS=q PreemptMode=suspend",
            "PreemptMode=GANG",
            "PreemptMode=OFF,GANG",
            "PreemptType=preempt/qos\\nPreemptMode=CANCEL\\nPartitionName=p Nodes=n1 PreemptMode=OFF"})
    void combinationsSlurmAccepts(String lines) {
        settings(lines.replace("\\n", "\n") + "\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "PreemptType=preempt/partition_prio\\nPreemptMode=SUSPEND"
                    + "|PreemptMode=SUSPEND: PreemptMode=SUSPEND requires GANG too (the gang scheduler resumes "
                    + "suspended jobs; write SUSPEND,GANG)",
            "PreemptMode=REQUEUE|PreemptMode=REQUEUE: PreemptType and PreemptMode values incompatible "
                    + "(PreemptType=preempt/none allows only OFF, optionally with GANG)",
            "PreemptType=preempt/qos|PreemptMode=OFF: PreemptType and PreemptMode values incompatible (OFF is only "
                    + "compatible with PreemptType=preempt/none; PreemptType=preempt/qos needs CANCEL, REQUEUE or "
                    + "SUSPEND,GANG)",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE,WITHIN|PreemptMode=REQUEUE,WITHIN: WITHIN "
                    + "applies only to PreemptType=preempt/qos",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE,GANG\\nPartitionName=p Nodes=n1 "
                    + "PreemptMode=suspend|PartitionName=p PreemptMode=SUSPEND: when a partition uses SUSPEND, the "
                    + "cluster-wide PreemptMode must include SUSPEND and GANG so that suspended jobs are resumed "
                    + "(cluster has REQUEUE,GANG)",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE\\nPartitionName=p Nodes=n1 PreemptMode=requeue"
                    + "|PartitionName=p PreemptMode=REQUEUE: a partition's PreemptMode is used only with "
                    + "PreemptType=preempt/partition_prio (this cluster has preempt/qos)",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE\\nPartitionName=p Nodes=n1 "
                    + "PreemptMode=requeue,within|PartitionName=p PreemptMode=REQUEUE,WITHIN: WITHIN applies only to "
                    + "PreemptType=preempt/qos",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE\\nQOS=q PreemptMode=cancel|QOS=q "
                    + "PreemptMode=CANCEL: a QOS's PreemptMode is used only with PreemptType=preempt/qos (this cluster "
                    + "has preempt/partition_prio)",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE\\nQOS=q PreemptMode=suspend|QOS=q PreemptMode=SUSPEND: "
                    + "SUSPEND requires GANG in the cluster-wide PreemptMode (the gang scheduler resumes suspended "
                    + "jobs; cluster has REQUEUE)",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE\\nQOS=a Preempt=a|QOS=a Preempt: a QOS cannot preempt "
                    + "itself (PreemptMode=WITHIN lets jobs of one QOS preempt each other by priority)",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE\\nQOS=a Preempt=b\\nQOS=b Preempt=a|QOS=a Preempt: a loop "
                    + "a -> b -> a (QOS may not preempt each other)",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE\\nQOS=c Preempt=a\\nQOS=a Preempt=b\\nQOS=b Preempt=c"
                    + "|QOS=a Preempt: a loop a -> b -> c -> a (QOS may not preempt each other)",
            "PreemptType=preempt/partition_prio\\nPreemptMode=REQUEUE\\nPreemptMinActiveTime=600\\n"
                    + "PreemptMaxActiveTime=300|PreemptMinActiveTime=600s is longer than PreemptMaxActiveTime=300s: no "
                    + "job could ever be preempted"})
    void combinationsSlurmRefuses_areRefusedWithTheKeyAndTheReason(String lines, String message) {
        var e = assertThrows(IllegalArgumentException.class, () -> settings(lines.replace("\\n", "\n") + "\n"));
        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "QOS=a Preempt=ghost|t.conf:2: Preempt: unknown QOS ghost",
            "PreemptMinActiveTime=UNLIMITED|t.conf:2: PreemptMinActiveTime: 'UNLIMITED' is not a time (0 turns the "
                    + "limit off)",
            "PreemptMaxVictims=0|t.conf:2: PreemptMaxVictims: 0 is out of range 1..65535",
            "PreemptMode=SUSPEND,BOGUS|t.conf:2: PreemptMode: 'BOGUS' is not one of OFF, CANCEL, REQUEUE, SUSPEND, "
                    + "GANG, WITHIN",
            "PreemptType=preempt/partition_prio\\nPreemptMode=CANCEL,REQUEUE|t.conf:3: PreemptMode: only one of "
                    + "OFF, CANCEL, REQUEUE, SUSPEND may be given (optionally with GANG or WITHIN), not [CANCEL, REQUEUE]",
            "PreemptType=preempt/qos\\nPreemptMode=REQUEUE,GANG,WITHIN|t.conf:3: PreemptMode: GANG cannot be combined "
                    + "with WITHIN",
            "PreemptParameters=oldest_first|t.conf:2: PreemptParameters: 'oldest_first' is not one of youngest_first, "
                    + "strict_order, reorder_count=N, min_exempt_priority=N, send_user_signal",
            "PreemptParameters=reorder_count=x|t.conf:2: PreemptParameters: reorder_count=x: 'x' is not a whole number",
            "PreemptParameters=reorder_count=65|t.conf:2: PreemptParameters: reorder_count=65: must be between 0 and 64",
            "SchedulerParameters=preempt_reorder_count=-1|t.conf:2: SchedulerParameters: preempt_reorder_count=-1: must "
                    + "be between 0 and 64"})
    void badValues_areRefusedByTheConfigParserWithFileAndLine(String lines, String problem) {
        var e = assertThrows(ConfigException.class, () -> RunningJobs.config(lines.replace("\\n", "\n") + "\n"));
        assertEquals(List.of(problem), e.problems());
    }

    @Test
    void preemptParameters_andSlurmsOlderSchedulerParametersNames() {
        assertEquals(new PreemptParameters(true, true, 3, 500, true), settings(
                "PreemptParameters=youngest_first,strict_order,reorder_count=3,min_exempt_priority=500,"
                        + "send_user_signal\n").parameters());
        assertEquals(new PreemptParameters(true, true, 2, -1, false), settings(
                "SchedulerParameters=bf_window=60,preempt_youngest_first,preempt_strict_order,"
                        + "preempt_reorder_count=2\n").parameters());
    }
}
