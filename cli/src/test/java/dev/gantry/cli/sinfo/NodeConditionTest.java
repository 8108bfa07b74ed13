package dev.gantry.cli.sinfo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.cli.model.NodeStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeConditionTest {

    @ParameterizedTest(name = "{0} drain={1} notResponding={2}: {3} / {4} / {5}")
    @CsvSource(delimiter = '|', value = {
        "IDLE      | false | false | idle   | idle       | IDLE",
        "MIXED     | false | false | mix    | mixed      | MIXED",
        "ALLOCATED | false | false | alloc  | allocated  | ALLOCATED",
        "DOWN      | false | true  | down*  | down*      | DOWN+NOT_RESPONDING",
        "UNKNOWN   | false | false | unk    | unknown    | UNKNOWN",
        "IDLE      | true  | false | drain  | drained    | IDLE+DRAIN",
        "MIXED     | true  | false | drng   | draining   | MIXED+DRAIN",
        "ALLOCATED | true  | true  | drng*  | draining*  | ALLOCATED+DRAIN+NOT_RESPONDING",
        "DOWN      | true  | false | drain  | drained    | DOWN+DRAIN",
        "IDLE      | false | true  | idle*  | idle*      | IDLE+NOT_RESPONDING",
    })
    void namesAsSlurm(NodeStatus base, boolean drain, boolean notResponding, String compact, String full, String complete) {
        NodeCondition c = new NodeCondition(base, drain, notResponding);
        assertEquals(compact, c.compact());
        assertEquals(full, c.full());
        assertEquals(complete, c.complete());
    }
}
