package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batched planning over time (PlanOptions.reserve): running jobs give their resources back at start + time limit;
 * a job that cannot start now gets the earliest start and nodes (StartTime, SchedNodeList), which later jobs in the same
 * batch plan around. Times read "+seconds" from now.
 */
class ReservationTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private final PlacementPlanner planner = PlacementPlanner.standard();

    static Stream<Arguments> cases() {
        return Stream.of(
                plan("a blocked job starts when the running job's time limit is up",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").running(100, "p", 4, 0, at(3600), "n1"),
                        List.of(job(1, 600).tasks(4)),
                        "1 pending Resources, from +3600 on n1"),
                plan("each reservation consumes the profile for the jobs after it",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").running(100, "p", 4, 0, at(3600), "n1"),
                        List.of(job(1, 600).tasks(4), job(2, 600).tasks(4)),
                        "1 pending Resources, from +3600 on n1", "2 pending Resources, from +4200 on n1"),
                plan("a multi-node job waits for its last node",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(100, "p", 4, 0, at(3600), "n1").running(101, "p", 1, 0, at(7200), "n2"),
                        List.of(job(1, 600).nodes(2).tasks(8)),
                        "1 pending Resources, from +7200 on n1, n2"),
                plan("backfill: a later job starts now if it ends before the reservation, else it waits",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(100, "p", 4, 0, at(3600), "n1").running(101, "p", 1, 0, at(7200), "n2"),
                        List.of(job(1, 600).nodes(2).tasks(8), job(2, 600).tasks(2), job(3, 10_000).tasks(1)),
                        "1 pending Resources, from +7200 on n1, n2", "2 starts on n2", "3 pending Resources, from +7800 on n1"),
                plan("no start is promised behind a job without a time limit",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").running(100, "p", 4, 0, "n1"),
                        List.of(job(1, 600).tasks(4)),
                        "1 pending Resources"),
                plan("the earliest window that is long enough, not the first gap",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(100, "p", 4, 0, at(1000), "n1").running(101, "p", 4, 0, at(5000), "n2"),
                        List.of(job(1, 3000).nodes(2).tasks(8), job(2, 5000).tasks(4), job(3, 2000).tasks(4)),
                        "1 pending Resources, from +5000 on n1, n2", "2 pending Resources, from +8000 on n1",
                        "3 pending Resources, from +1000 on n1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansStartTimes(String rule, DomainCluster cluster, List<JobFixture> jobs, List<String> expected) {
        List<Placement> placements = planner.plan(cluster.view(), jobs.stream().map(JobFixture::build).toList(),
                new PlanOptions(false, true, NOW));

        assertEquals(expected, placements.stream().map(ReservationTest::describe).toList());
    }

    private static Instant at(long seconds) {
        return NOW.plusSeconds(seconds);
    }

    private static JobFixture job(long id, long limitSeconds) {
        return aJob(id).partitions("p").with(o -> o.withTimeLimitSeconds(limitSeconds));
    }

    private static Arguments plan(String rule, DomainCluster cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(rule, cluster, jobs, Arrays.asList(expected));
    }

    private static String describe(Placement placement) {
        return switch (placement) {
            case Placement.Start start -> start.jobId() + " starts on "
                    + start.nodes().stream().map(NodeAllotment::node).collect(Collectors.joining(", "));
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName()
                    + pending.reservation().map(r -> ", from +" + (r.start().getEpochSecond() - NOW.getEpochSecond()) + " on "
                    + String.join(", ", r.nodes())).orElse("");
        };
    }
}
