package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StepLayoutTest {

    private static final List<String> JOB = List.of("n1", "n2", "n3");

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of("no options: one task on every node of the job", 0, 0, List.of(), "n1:[0] n2:[1] n3:[2]"),
                Arguments.of("-N2: the job's first two nodes", 2, 0, List.of(), "n1:[0] n2:[1]"),
                Arguments.of("-n2: min(n, nodes) nodes", 0, 2, List.of(), "n1:[0] n2:[1]"),
                Arguments.of("-n7: blocks, the first nodes one more", 0, 7, List.of(), "n1:[0, 1, 2] n2:[3, 4] n3:[5, 6]"),
                Arguments.of("-N1 -n3: every task on one node", 1, 3, List.of(), "n1:[0, 1, 2]"),
                Arguments.of("-w n3: that node", 0, 0, List.of("n3"), "n3:[0]"),
                Arguments.of("-w n3 -N2: the named node plus the job's first", 2, 0, List.of("n3"), "n1:[0] n3:[1]"),
                Arguments.of("-w n2,n1: in the job's order", 0, 4, List.of("n2", "n1"), "n1:[0, 1] n2:[2, 3]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void placesTasksAsSrunDoes(String name, int nodes, int tasks, List<String> nodeList, String expected) {
        StepLayout.Result r = StepLayout.plan(JOB, nodes, tasks, nodeList);
        assertEquals(expected, String.join(" ", r.placements().stream().map(p -> p.node() + ":" + p.taskIds()).toList()));
        for (int i = 0; i < r.placements().size(); i++) {
            assertEquals(i, r.placements().get(i).nodeId(), "SLURM_NODEID is the node's index in the step");
        }
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("more nodes than the job has", 4, 0, List.of()),
                Arguments.of("a node outside the job", 0, 0, List.of("n9")),
                Arguments.of("fewer tasks than nodes", 3, 2, List.of()),
                Arguments.of("-N smaller than the -w list", 1, 0, List.of("n1", "n2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesWhatTheAllocationCannotHold(String name, int nodes, int tasks, List<String> nodeList) {
        StepLayout.Result r = StepLayout.plan(JOB, nodes, tasks, nodeList);
        assertTrue(r.refusal().orElseThrow().startsWith(StepLayout.NOT_AVAILABLE), r.refusal().get());
        assertEquals(List.of(), r.placements());
    }

    @Test
    void everyTaskIdIsUsedOnce_fromZero() {
        for (int tasks = 3; tasks <= 40; tasks++) {
            StepLayout.Result r = StepLayout.plan(JOB, 0, tasks, List.of());
            List<Integer> ids = r.placements().stream().flatMap(p -> p.taskIds().stream()).toList();
            assertEquals(java.util.stream.IntStream.range(0, tasks).boxed().toList(), ids);
            assertEquals(tasks, r.numTasks());
        }
    }
}
