package dev.gantry.select.placement;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.select.fixture.ClusterFixture;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The skeleton placement rules, one named case each. Outcomes read "JOB starts in PARTITION on NODE:CPUS[+MEM M], …"
 * (first node runs the batch script) or "JOB pending REASON".
 */
class PlacementPlannerTest {

    private final PlacementPlanner planner = PlacementPlanner.standard();

    static Stream<Arguments> cases() {
        return Stream.of(
                // Node choice within a partition.
                plan("best fit: the node with the fewest free CPUs that still fit",
                        aCluster().node("n1", 8, 0).node("n2", 8, 0).node("n3", 4, 0).partition("debug", "n1", "n2", "n3")
                                .running(100, "debug", "n2", 4, 0).running(101, "debug", "n3", 2, 0),
                        List.of(aJob(1).tasks(3)),
                        "1 starts in debug on n2:3"),
                plan("lower Weight first, even when a heavier node fits better",
                        aCluster().node("n1", 2, 0, 10).node("n2", 8, 0, 1).partition("debug", "n1", "n2"),
                        List.of(aJob(1).tasks(2)),
                        "1 starts in debug on n2:2"),
                plan("equal weight and fit: partition order breaks the tie",
                        aCluster().node("n2", 4, 0).node("n1", 4, 0).partition("debug", "n2", "n1"),
                        List.of(aJob(1).tasks(2)),
                        "1 starts in debug on n2:2"),
                plan("drained, down, unknown and not-responding nodes are skipped",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).node("n4", 4, 0).node("n5", 8, 0)
                                .drained("n1").state("n2", NodeState.NODE_STATE_DOWN)
                                .state("n3", NodeState.NODE_STATE_UNKNOWN).notResponding("n4")
                                .partition("debug", "n1", "n2", "n3", "n4", "n5"),
                        List.of(aJob(1).tasks(1)),
                        "1 starts in debug on n5:1"),
                plan("nodes outside the partition are not used",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n2").partition("other", "n1"),
                        List.of(aJob(1).tasks(1)),
                        "1 starts in debug on n2:1"),

                // CPUs and node counts.
                plan("multi-node: CPUs spread evenly, the first nodes get the remainder",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).partition("debug", "n1", "n2", "n3"),
                        List.of(aJob(1).nodes(2).tasks(5)),
                        "1 starts in debug on n1:3, n2:2"),
                plan("min..max nodes: the fewest nodes that fit",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).node("n4", 4, 0)
                                .partition("debug", "n1", "n2", "n3", "n4"),
                        List.of(aJob(1).nodes(1, 4).tasks(12)),
                        "1 starts in debug on n1:4, n2:4, n3:4"),
                plan("min..max nodes: one node when one is enough",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1", "n2"),
                        List.of(aJob(1).nodes(1, 2).tasks(2).cpusPerTask(2)),
                        "1 starts in debug on n1:4"),
                plan("max_nodes far beyond the partition: still the fewest nodes that fit",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).node("n3", 4, 0).partition("debug", "n1", "n2", "n3"),
                        List.of(aJob(1).nodes(1, 100_000).tasks(8), aJob(2).nodes(1, 100_000).tasks(8)),
                        "1 starts in debug on n1:4, n2:4", "2 pending Resources"),
                plan("fewer tasks than nodes: every node still gets a CPU",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1", "n2"),
                        List.of(aJob(1).nodes(2).tasks(1)),
                        "1 starts in debug on n1:1, n2:1"),
                plan("more nodes than the partition has: Resources",
                        aCluster().node("n1", 4, 0).partition("debug", "n1"),
                        List.of(aJob(1).nodes(2).tasks(2)),
                        "1 pending Resources"),
                plan("existing allocations and earlier placements in the batch both count",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1", "n2").running(100, "debug", "n1", 1, 0),
                        List.of(aJob(1).tasks(3), aJob(2).tasks(3), aJob(3).tasks(2)),
                        "1 starts in debug on n1:3", "2 starts in debug on n2:3", "3 pending Resources"),
                plan("a suspended job keeps its CPUs",
                        aCluster().node("n1", 4, 0).partition("debug", "n1").suspended(100, "debug", "n1", 4, 0),
                        List.of(aJob(1).tasks(1)),
                        "1 pending Resources"),

                // Memory.
                plan("memory: a node without the memory free is skipped",
                        aCluster().node("n1", 4, 1000).node("n2", 4, 4000).partition("debug", "n1", "n2")
                                .running(100, "debug", "n1", 0, 500),
                        List.of(aJob(1).tasks(1).mem(1000)),
                        "1 starts in debug on n2:1+1000M"),
                plan("memory: earlier placements use it up",
                        aCluster().node("n1", 8, 3000).partition("debug", "n1"),
                        List.of(aJob(1).mem(2000), aJob(2).mem(2000), aJob(3).mem(1000)),
                        "1 starts in debug on n1:1+2000M", "2 pending Resources", "3 starts in debug on n1:1+1000M"),
                plan("memory not requested: a node with no memory configured still takes the job",
                        aCluster().node("n1", 4, 0).partition("debug", "n1"),
                        List.of(aJob(1)),
                        "1 starts in debug on n1:1"),

                // select/linear.
                plan("linear: a job takes whole idle nodes, never a node with a job on it",
                        aCluster().linear().node("n1", 8, 0).node("n2", 4, 0).partition("debug", "n1", "n2")
                                .running(100, "debug", "n1", 1, 0),
                        List.of(aJob(1).tasks(1), aJob(2).tasks(1)),
                        "1 starts in debug on n2:4", "2 pending Resources"),
                plan("linear: best fit picks the smallest idle node that holds the tasks",
                        aCluster().linear().node("n1", 16, 0).node("n2", 4, 0).node("n3", 8, 0).partition("debug", "n1", "n2", "n3"),
                        List.of(aJob(1).tasks(6), aJob(2).nodes(2).tasks(2)),
                        "1 starts in debug on n3:8", "2 starts in debug on n2:4, n1:16"),

                // Partitions.
                plan("multi-partition: falls back to the next partition when the first is full",
                        aCluster().node("n1", 2, 0).node("n2", 8, 0).partition("small", "n1").partition("big", "n2"),
                        List.of(aJob(1).partitions("small", "big").tasks(4)),
                        "1 starts in big on n2:4"),
                plan("multi-partition: prefers the first partition when it fits",
                        aCluster().node("n1", 8, 0).node("n2", 8, 0).partition("small", "n1").partition("big", "n2"),
                        List.of(aJob(1).partitions("small", "big").tasks(4)),
                        "1 starts in small on n1:4"),
                plan("a DOWN partition starts nothing: the next partition is used",
                        aCluster().node("n1", 8, 0).node("n2", 8, 0)
                                .partition("maint", PartitionState.PARTITION_STATE_DOWN, "n1").partition("debug", "n2"),
                        List.of(aJob(1).partitions("maint", "debug")),
                        "1 starts in debug on n2:1"),
                plan("a DRAIN partition still starts queued jobs",
                        aCluster().node("n1", 8, 0).partition("debug", PartitionState.PARTITION_STATE_DRAIN, "n1"),
                        List.of(aJob(1)),
                        "1 starts in debug on n1:1"),
                plan("partition reasons: PartitionDown, PartitionInactive, PartitionConfig",
                        aCluster().node("n1", 8, 0).partition("maint", PartitionState.PARTITION_STATE_DOWN, "n1")
                                .partition("old", PartitionState.PARTITION_STATE_INACTIVE, "n1"),
                        List.of(aJob(1).partitions("maint"), aJob(2).partitions("old"), aJob(3).partitions("nosuch")),
                        "1 pending PartitionDown", "2 pending PartitionInactive", "3 pending PartitionConfig"),

                // Main-pass ordering.
                stopAtFirstBlocked("stop at first blocked: Resources for the first, Priority for the later ones",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1").partition("other", "n2"),
                        List.of(aJob(1).tasks(2), aJob(2).tasks(4), aJob(3).tasks(1), aJob(4).partitions("other").tasks(4)),
                        "1 starts in debug on n1:2", "2 pending Resources", "3 pending Priority", "4 starts in other on n2:4"),
                plan("without stop at first blocked, later jobs that fit still start",
                        aCluster().node("n1", 4, 0).partition("debug", "n1"),
                        List.of(aJob(1).tasks(2), aJob(2).tasks(4), aJob(3).tasks(1)),
                        "1 starts in debug on n1:2", "2 pending Resources", "3 starts in debug on n1:1"),
                stopAtFirstBlocked("stop at first blocked: a job blocked in one partition may start in another",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1").partition("other", "n2"),
                        List.of(aJob(1).tasks(8), aJob(2).partitions("debug", "other").tasks(1)),
                        "1 pending Resources", "2 starts in other on n2:1"),
                stopAtFirstBlocked("stop at first blocked: a multi-partition job blocks all the partitions it tried",
                        aCluster().node("n1", 4, 0).node("n2", 4, 0).partition("debug", "n1").partition("other", "n2"),
                        List.of(aJob(1).partitions("debug", "other").tasks(8), aJob(2).partitions("other").tasks(1)),
                        "1 pending Resources", "2 pending Priority"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void placesJobsByTheSkeletonRules(String rule, ClusterFixture cluster, List<JobFixture> jobs, boolean stopAtFirstBlocked,
                                      List<String> expected) {
        List<Placement> placements = planner.plan(cluster.view(), jobs.stream().map(JobFixture::build).toList(), stopAtFirstBlocked);

        assertEquals(expected, placements.stream().map(PlacementPlannerTest::describe).toList());
    }

    @Test
    void planningNeverChangesTheView() {
        ReplicaView view = aCluster().node("n1", 4, 1000).partition("debug", "n1").running(100, "debug", "n1", 1, 100).view();
        List<ResourceRequest> jobs = List.of(aJob(1).tasks(3).mem(900).build(), aJob(2).build());

        List<Placement> first = planner.plan(view, jobs, false);
        List<Placement> second = planner.plan(view, jobs, false);

        assertEquals(first, second);
        assertEquals(1, view.usedCpus(0));
        assertEquals(100, view.usedMemoryMb(0));
        assertEquals(1, view.jobsOn(0));
    }

    @Test
    void oneAnswerPerRequestInRequestOrder() {
        ReplicaView view = aCluster().node("n1", 2, 0).partition("debug", "n1").view();
        List<ResourceRequest> jobs = List.of(aJob(30).build(), aJob(10).tasks(9).build(), aJob(20).build());

        assertEquals(List.of(30L, 10L, 20L), planner.plan(view, jobs, true).stream().map(Placement::jobId).toList());
    }

    private static Arguments plan(String rule, ClusterFixture cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(rule, cluster, jobs, false, Arrays.asList(expected));
    }

    private static Arguments stopAtFirstBlocked(String rule, ClusterFixture cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(rule, cluster, jobs, true, Arrays.asList(expected));
    }

    static String describe(Placement placement) {
        return switch (placement) {
            case Placement.Start start -> start.jobId() + " starts in " + start.partition() + " on "
                    + start.nodes().stream().map(PlacementPlannerTest::describe).collect(Collectors.joining(", "));
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName();
        };
    }

    private static String describe(NodeAllotment share) {
        return share.node() + ":" + share.cpus() + (share.memoryMb() > 0 ? "+" + share.memoryMb() + "M" : "");
    }
}
