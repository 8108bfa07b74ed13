package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.NodeRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeLivenessTest {

    final NodeRecord n1 = NodeRecord.configured(Fixtures.config().nodes().get(0));

    @Test
    void aHeartbeat_onlyRecordsWhenTheNodeWasSeen() {
        Decision d = NodeLiveness.heartbeat(n1, T0);
        assertEquals(T0, d.nodes().get(0).lastSeen());
        assertEquals(List.of(), d.effects());
    }

    @Test
    void aNodeThatRespondsAgain_isPublished_andMayTakeJobs() {
        NodeRecord down = NodeLiveness.notResponding(n1, "Not responding", true).nodes().get(0);
        assertTrue(down.notResponding());

        Decision d = NodeLiveness.heartbeat(down, T0);
        assertFalse(d.nodes().get(0).notResponding());
        assertEquals(List.of(new Effect.PublishNode(n1.name())), effects(d, Effect.PublishNode.class));
        assertEquals(1, effects(d, Effect.TriggerPass.class).size());
    }

    @Test
    void aFailedLaunch_marksTheNodeWithoutPublishing() {
        assertEquals(List.of(), NodeLiveness.notResponding(n1, "agent unreachable", false).effects());
    }
}
