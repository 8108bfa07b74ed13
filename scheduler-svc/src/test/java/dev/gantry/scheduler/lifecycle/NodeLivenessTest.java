package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeLivenessTest {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    final NodeRecord n1 = NodeRecord.configured(Fixtures.config().nodes().get(0));
    /** n1, registered at T0 (its last heartbeat). */
    final NodeRecord seen = n1.registeredAt("host:1", T0, T0, false, "");

    @Test
    void aHeartbeat_onlyRecordsWhenTheNodeWasSeen() {
        Decision d = NodeLiveness.heartbeat(seen, T0.plusSeconds(3));
        assertEquals(T0.plusSeconds(3), d.nodes().get(0).lastSeen());
        assertEquals(List.of(), d.effects());
    }

    @Test
    void aNodeSetDownForNotResponding_mustRegisterAgain_aHeartbeatDoesNotReviveIt() {
        NodeRecord down = NodeLiveness.notResponding(seen, "Not responding", true).nodes().get(0);
        assertTrue(NodeLiveness.mustRegister(down));
        assertTrue(NodeLiveness.mustRegister(n1), "never registered with this controller");
        assertTrue(NodeLiveness.mustRegister(null), "not in the config");
        assertFalse(NodeLiveness.mustRegister(seen));

        NodeRecord back = down.registeredAt("host:1", T0.plusSeconds(60), T0, false, "");
        assertFalse(back.notResponding());
        assertTrue(back.usable(), "a registration returns it to service (ReturnToService=1)");
    }

    @Test
    void aFailedLaunch_marksTheNodeWithoutPublishing() {
        assertEquals(List.of(), NodeLiveness.notResponding(n1, "agent unreachable", false).effects());
    }

    static Stream<Arguments> silence() {
        return Stream.of(
                Arguments.of("heard from within the timeout", T0, T0.plusSeconds(10), false),
                Arguments.of("silent past the timeout", T0, T0.plusSeconds(11), true),
                Arguments.of("silent past it, but the controller watched only since a pause ended 5 s ago", T0.plusSeconds(6),
                        T0.plusSeconds(11), false),
                Arguments.of("a fresh window since the pause, and past that too", T0.plusSeconds(6), T0.plusSeconds(17), true),
                Arguments.of("watched since before its last heartbeat: the heartbeat counts", T0.minusSeconds(100),
                        T0.plusSeconds(11), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("silence")
    void silenceCounts_fromTheLaterOfTheLastHeartbeatAndTheControllersWatch(String name, Instant watchingSince, Instant now,
            boolean down) {
        assertEquals(down, NodeLiveness.silentTooLong(seen, watchingSince, TIMEOUT, now));
    }

    @Test
    void aNodeAlreadyDown_orNeverRegisteredAndIdle_isNotJudged() {
        NodeRecord down = NodeLiveness.notResponding(seen, "Not responding", true).nodes().get(0);
        assertFalse(NodeLiveness.silentTooLong(down, T0, TIMEOUT, T0.plusSeconds(3600)));
        assertFalse(NodeLiveness.silentTooLong(n1, T0, TIMEOUT, T0.plusSeconds(3600)), "stays UNKNOWN");
    }

    @Test
    void aNodeNeverRegisteredSinceTheStart_holdingLoadedJobs_getsOneWindowFromTheStart() {
        NodeRecord holding = n1.withAllocation(2, 512); // a job loaded as running there
        assertFalse(NodeLiveness.silentTooLong(holding, T0, TIMEOUT, T0.plusSeconds(10)));
        assertTrue(NodeLiveness.silentTooLong(holding, T0, TIMEOUT, T0.plusSeconds(11)));
    }

    @Test
    void aPause_isAGapOfThreeTicksOrAHeartbeatInterval_whicheverIsLonger() {
        Duration tick = Duration.ofSeconds(1);
        assertEquals(Duration.ofSeconds(3), NodeLiveness.pauseThreshold(tick, Duration.ofSeconds(2)));
        assertEquals(Duration.ofSeconds(30), NodeLiveness.pauseThreshold(tick, Duration.ofSeconds(30)));
        assertFalse(NodeLiveness.isPause(Duration.ofMillis(2_900), Duration.ofSeconds(3)));
        assertTrue(NodeLiveness.isPause(Duration.ofMillis(3_100), Duration.ofSeconds(3)));
    }

    static JobRecord runningOn(long id, int run, String... nodes) {
        JobRecord j = Jobs.running(id, nodes);
        JobRecord.Builder b = j.toBuilder();
        var controls = j.controls();
        for (int i = 0; i < run; i++) {
            controls = controls.withRestart();
        }
        return b.controls(controls).build();
    }

    static Stream<Arguments> listedRuns() {
        JobRecord running = runningOn(1, 0, "n1");
        JobRecord secondRunHere = runningOn(2, 1, "n1");
        JobRecord secondRunElsewhere = runningOn(3, 1, "n2");
        JobRecord pending = running.toBuilder().state(JobState.PENDING, T0).build();
        JobRecord over = running.toBuilder().state(JobState.COMPLETED, T0).build();
        JobRecord completing = over.toBuilder().completing(true).build();
        return Stream.of(
                Arguments.of("its current run, allocated here: kept", running, 0, null),
                Arguments.of("a run unnamed (an older agent): the current one, kept", running, JobExit.UNNAMED_RUN, null),
                Arguments.of("unknown to the controller", null, 0, "unknown to the controller"),
                Arguments.of("over", over, 0, "over (COMPLETED)"),
                Arguments.of("completing: its terminate is under way", completing, 0, null),
                Arguments.of("back in the queue (requeued after its node went DOWN)", pending, 0, "back in the queue"),
                Arguments.of("allocated to another node only", runningOn(4, 0, "n2"), 0, "not allocated to n1"),
                Arguments.of("an earlier run, its current run elsewhere", secondRunElsewhere, 0, "not allocated to n1"),
                Arguments.of("an earlier run, its current run launched here (the launch ends it)", secondRunHere, 0, null),
                Arguments.of("a run that never was", secondRunHere, 5, "run 5 is not its current run 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listedRuns")
    void aRunTheControllerNoLongerGivesTheNode_isAnOrphan(String name, JobRecord job, int run, String why) {
        long id = job == null ? 99 : job.id();
        Map<Long, JobRecord> jobs = new HashMap<>();
        if (job != null) {
            jobs.put(id, job);
        }
        List<NodeLiveness.Orphan> orphans = NodeLiveness.orphans("n1", Map.of(id, run), jobs::get);
        assertEquals(why == null ? List.of() : List.of(new NodeLiveness.Orphan(id, run, why)), orphans);
    }

    @Test
    void aPartMissingFromAHeartbeat_countsGoneOnlyPastTheLaunchGrace() {
        JobRecord j = Jobs.running(1, "n1"); // started at T0
        Duration grace = Duration.ofSeconds(22);
        assertFalse(NodeLiveness.missingLongEnough(j, grace, T0.plusSeconds(1)), "maybe launched after the heartbeat was built");
        assertFalse(NodeLiveness.missingLongEnough(j, grace, T0.plusSeconds(22)));
        assertTrue(NodeLiveness.missingLongEnough(j, grace, T0.plusSeconds(23)));
    }
}
