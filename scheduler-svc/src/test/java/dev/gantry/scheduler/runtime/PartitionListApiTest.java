package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.Partition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ListPartitions over the client API: what scontrol show partition prints from. */
class PartitionListApiTest {

    @Test
    void eachPartition_carriesThePreemptModeInForce_asSlurmSpellsIt() throws Exception {
        try (ControllerApiRig rig = new ControllerApiRig("""
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                NodeName=n[1-2] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-2] Default=YES
                PartitionName=hi Nodes=n[1-2] PriorityTier=2
                PartitionName=rq Nodes=n[1-2] PreemptMode=REQUEUE
                """)) {
            List<Partition> partitions = rig.api().listPartitions(ListPartitionsRequest.getDefaultInstance())
                    .getPartitionsList();

            assertEquals(List.of("debug GANG,SUSPEND (own: )", "hi GANG,SUSPEND (own: )", "rq REQUEUE (own: REQUEUE)"),
                    partitions.stream().map(p -> p.getName() + " " + p.getEffectivePreemptMode() + " (own: "
                            + p.getPreemptMode() + ")").toList());
        }
    }
}
