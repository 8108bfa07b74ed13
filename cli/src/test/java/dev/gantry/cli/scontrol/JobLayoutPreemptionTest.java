package dev.gantry.cli.scontrol;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.at;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** scontrol show job's preemption fields: PreemptEligibleTime, PreemptTime and Restarts, as Slurm prints them. */
class JobLayoutPreemptionTest {

    private static final JobLayout LAYOUT = new JobLayout(NOW, ZoneOffset.UTC, gid -> "staff", false);

    /** The record scontrol prints for {@code job}, as the controller sends it. */
    private static String render(Job job) {
        return LAYOUT.render(JobInfos.job(job));
    }

    private static String line(String record, String startsWith) {
        return record.lines().map(String::strip).filter(l -> l.startsWith(startsWith)).findFirst().orElse("(missing)");
    }

    @Test
    void aRunningJob_showsWhenItBecomesPreemptable_andNoPreemptTime() {
        Job job = running(aJob(42), 125, "n1").setPreemptEligibleTime(at(NOW.plusSeconds(480))).build();

        String shown = render(job);

        assertEquals("PreemptEligibleTime=2026-11-22T12:08:00 PreemptTime=None", line(shown, "PreemptEligibleTime="));
        assertTrue(shown.indexOf("StartTime=") < shown.indexOf("PreemptEligibleTime=")
                && shown.indexOf("PreemptEligibleTime=") < shown.indexOf("SuspendTime="), shown);
    }

    @Test
    void aRequeuedVictim_showsWhenItWasPreempted_andItsRestarts() {
        Job job = aJob(43).setReason("Preempted").setRestartCount(2).setPreemptTime(at(NOW.minusSeconds(30))).build();

        String shown = render(job);

        assertEquals("PreemptEligibleTime=None PreemptTime=2026-11-22T11:59:30", line(shown, "PreemptEligibleTime="));
        assertEquals("JobState=PENDING Reason=Preempted Dependency=(null)", line(shown, "JobState="));
        assertTrue(line(shown, "Requeue=").contains(" Restarts=2 "), shown);
    }

    @Test
    void exclusiveUser_showsOverSubscribeUser() {
        Job job = aJob(45).setSpec(aJob(45).getSpec().toBuilder().setExclusiveUser(true)).build();
        assertTrue(line(render(job), "OverSubscribe=").startsWith("OverSubscribe=USER "));
    }

    @Test
    void aJobNeverStartedNorPreempted_hasNoPreemptionLine() {
        assertFalse(render(aJob(44).build()).contains("Preempt"));
    }
}
