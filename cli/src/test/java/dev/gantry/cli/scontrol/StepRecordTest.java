package dev.gantry.cli.scontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Step;
import dev.gantry.cli.api.StepInfos;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class StepRecordTest {

    private static final Step STEP = Step.newBuilder().setJobId(42).setStepId("0").setName("hostname").setPartition("debug")
            .setUser("alice").setStartTime(Timestamp.newBuilder().setSeconds(Instant.parse("2026-11-22T12:00:00Z").getEpochSecond()))
            .addNodes("n1").addNodes("n2").setNumTasks(4).setNumCpus(4).setState("RUNNING").build();

    @Test
    void showStep_usesSlurmsFieldNames() {
        assertEquals("""
                StepId=42.0 UserId=alice StartTime=2026-11-22T12:00:00 TimeLimit=UNLIMITED
                   State=RUNNING Partition=debug NodeList=n[1-2]
                   Nodes=2 CPUs=4 Tasks=4 Name=hostname Network=(null)
                   Dist=Block

                """, StepRecord.render(StepInfos.step(STEP), ZoneId.of("UTC"), false));
    }

    @Test
    void oneLiner_putsEverythingOnOneLine() {
        assertEquals("StepId=42.0 UserId=alice StartTime=2026-11-22T12:00:00 TimeLimit=UNLIMITED State=RUNNING Partition=debug "
                + "NodeList=n[1-2] Nodes=2 CPUs=4 Tasks=4 Name=hostname Network=(null) Dist=Block\n",
                StepRecord.render(StepInfos.step(STEP), ZoneId.of("UTC"), true));
    }
}
