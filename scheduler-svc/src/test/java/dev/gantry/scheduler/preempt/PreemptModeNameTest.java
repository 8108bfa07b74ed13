package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.PreemptMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * PreemptMode as scontrol prints it: Slurm 22.05's preempt_mode_string() (src/common/slurm_protocol_defs.c) puts GANG or
 * WITHIN first, whatever order the config wrote, and leaves OFF out beside a flag.
 */
class PreemptModeNameTest {

    @ParameterizedTest(name = "PreemptMode={0} prints {1}")
    @CsvSource(delimiter = '|', value = {
        "OFF            | OFF",
        "CANCEL         | CANCEL",
        "requeue        | REQUEUE",
        "SUSPEND,GANG   | GANG,SUSPEND",
        "GANG,SUSPEND   | GANG,SUSPEND",
        "REQUEUE,GANG   | GANG,REQUEUE",
        "CANCEL,GANG    | GANG,CANCEL",
        "GANG           | GANG",
        "OFF,GANG       | GANG",
        "WITHIN         | WITHIN",
        "SUSPEND,WITHIN | WITHIN,SUSPEND",
        "REQUEUE,WITHIN | WITHIN,REQUEUE",
        "CANCEL,WITHIN  | WITHIN,CANCEL",
    })
    void slurmsSpelling(String configured, String printed) {
        assertEquals(printed, PreemptMode.parse(configured).slurmName());
    }

    @Test
    void aPartitionWithoutItsOwnMode_showsTheClusters_oneWithItsOwn_showsThat() {
        PreemptSettings s = settings("""
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                PartitionName=plain Nodes=n1
                PartitionName=rq Nodes=n1 PreemptMode=REQUEUE
                PartitionName=off Nodes=n1 PreemptMode=OFF
                """);
        assertEquals("GANG,SUSPEND", s.partitionMode("plain").slurmName());
        assertEquals("REQUEUE", s.partitionMode("rq").slurmName());
        assertEquals("OFF", s.partitionMode("off").slurmName());
    }
}
