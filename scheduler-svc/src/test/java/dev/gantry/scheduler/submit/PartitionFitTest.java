package dev.gantry.scheduler.submit;

import static dev.gantry.scheduler.Fixtures.aRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gantry.common.config.ConfigParser;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The fit check stops at the first nodes that can take a job (a submission must not cost O(nodes)); what it decides
 * must not depend on where in the partition those nodes are.
 */
class PartitionFitTest {

    /** 1,000 small nodes, then two big ones at the very end of the partition. */
    private final SubmissionPolicy policy = new SubmissionPolicy(ConfigParser.parse(Path.of("test.conf"), """
            NodeName=s[1-1000] CPUs=4 RealMemory=8000
            NodeName=b[1-2] CPUs=64 RealMemory=512000
            PartitionName=mixed Nodes=s[1-1000],b[1-2] Default=YES
            """));

    @Test
    void aJobOnlyTheLastNodesCanTake_isAccepted() {
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class,
                policy.check(aRequest().minNodes(2).ntasks(2).cpusPerTask(48).build()));
        assertEquals(2, a.ask().minNodes());
    }

    @Test
    void aRefusal_countsEveryNodeThatCouldTakeTheJob() {
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class,
                policy.check(aRequest().minNodes(3).ntasks(3).cpusPerTask(48).build()));
        assertEquals("min_nodes: 3 nodes requested; only 2 node(s) of partition mixed have the CPUs, memory, GRES and"
                + " features requested", r.message());
    }

    @Test
    void tasksPerNode_seeHowManyNodesCanBeUsed_evenWhenManyCould() {
        var ok = assertInstanceOf(SubmissionPolicy.Accepted.class,
                policy.check(aRequest().ntasks(1000).ntasksPerNode(1).minNodes(1000).maxNodes(1002).build()));
        assertEquals(1000, ok.ask().minNodes());
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class,
                policy.check(aRequest().ntasks(2000).ntasksPerNode(1).minNodes(1000).maxNodes(1002).build()));
        assertEquals("ntasks_per_node: 2000 tasks at 1 per node need 2000 nodes; at most 1002 can be used in partition"
                + " mixed", r.message());
    }
}
