package dev.gantry.cli.sinfo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeConditionTest {

    @ParameterizedTest(name = "{0} drain={1} notResponding={2}: {3} / {4} / {5}")
    @CsvSource(delimiter = '|', value = {
        "NODE_STATE_IDLE      | false | false | idle   | idle       | IDLE",
        "NODE_STATE_MIXED     | false | false | mix    | mixed      | MIXED",
        "NODE_STATE_ALLOCATED | false | false | alloc  | allocated  | ALLOCATED",
        "NODE_STATE_DOWN      | false | true  | down*  | down*      | DOWN+NOT_RESPONDING",
        "NODE_STATE_UNKNOWN   | false | false | unk    | unknown    | UNKNOWN",
        "NODE_STATE_IDLE      | true  | false | drain  | drained    | IDLE+DRAIN",
        "NODE_STATE_MIXED     | true  | false | drng   | draining   | MIXED+DRAIN",
        "NODE_STATE_ALLOCATED | true  | true  | drng*  | draining*  | ALLOCATED+DRAIN+NOT_RESPONDING",
        "NODE_STATE_DOWN      | true  | false | drain  | drained    | DOWN+DRAIN",
        "NODE_STATE_IDLE      | false | true  | idle*  | idle*      | IDLE+NOT_RESPONDING",
    })
    void namesAsSlurm(NodeState base, boolean drain, boolean notResponding, String compact, String full, String complete) {
        NodeCondition c = new NodeCondition(base, drain, notResponding);
        assertEquals(compact, c.compact());
        assertEquals(full, c.full());
        assertEquals(complete, c.complete());
    }
}
