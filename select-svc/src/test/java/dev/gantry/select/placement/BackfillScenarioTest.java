package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.select.fixture.DomainCluster;
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
 * The backfill pass (Slurm's sched/backfill) as scenarios on a virtual clock: each names the rule, the cluster, the
 * queue in priority order, the pass's parameters and every job's expected answer. Times read "+seconds" from now; all
 * nodes have 4 CPUs and every job asks for whole nodes' worth of CPUs unless it says otherwise.
 */
class BackfillScenarioTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** n1 busy until +1000, n2 until +3000, n3 free: the top job needs all three, the next two, then two small ones. */
    private static DomainCluster threeNodes() {
        return consTres("CR_Core").nodes("n", 3, 4, 0).partition("p", "n1", "n2", "n3")
                .running(100, "p", 4, 0, at(1000), "n1").running(101, "p", 4, 0, at(3000), "n2");
    }

    private static List<QueuedJob> threeNodeQueue() {
        return List.of(job(1, 3, 1000), job(2, 2, 1000), job(3, 1, 2500), job(4, 1, 500));
    }

    static Stream<Arguments> scenarios() {
        return Stream.of(
                scenario("EASY: only the top blocked job holds; a lower job starts now where it delays only an estimate",
                        threeNodes(), threeNodeQueue(), options(ReservationMode.EASY, 0, 0, 0),
                        "1 reserved +3000 on n1, n2, n3", "2 estimated +1000 on n1, n3 (EASY)", "3 starts on n3",
                        "4 estimated +1000 on n1 (EASY)"),
                scenario("conservative: every blocked job holds; a lower job starts now only where it delays none",
                        threeNodes(), threeNodeQueue(), options(ReservationMode.CONSERVATIVE, 0, 0, 0),
                        "1 reserved +3000 on n1, n2, n3", "2 reserved +1000 on n1, n3", "3 reserved +4000 on n1",
                        "4 starts on n3"),
                scenario("a job below bf_min_prio_reserve gets an estimate and holds nothing: the next job reserves there",
                        consTres("CR_Core").nodes("n", 1, 4, 0).partition("p", "n1").running(100, "p", 4, 0, at(1000), "n1"),
                        List.of(job(1, 1, 1000).mayNotReserve(), job(2, 1, 1000)), options(ReservationMode.CONSERVATIVE, 0, 0, 0),
                        "1 estimated +1000 on n1 (NO_RESERVE)", "2 reserved +1000 on n1"),
                scenario("a job below bf_min_prio_reserve still starts now where it delays no reservation",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2").running(100, "p", 4, 0, at(1000), "n1"),
                        List.of(job(1, 2, 1000), job(2, 1, 900).mayNotReserve(), job(3, 1, 2000).mayNotReserve()),
                        options(ReservationMode.CONSERVATIVE, 0, 0, 0),
                        "1 reserved +1000 on n1, n2", "2 starts on n2", "3 estimated +2000 on n1 (NO_RESERVE)"),
                scenario("bf_window: a start later than the window is no start",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                                .running(100, "p", 4, 0, at(3600), "n1").running(101, "p", 4, 0, at(600), "n2"),
                        List.of(job(1, 1, 100), job(2, 2, 100)), options(ReservationMode.CONSERVATIVE, 1800, 0, 0),
                        "1 reserved +600 on n2", "2 no start Resources"),
                scenario("bf_max_job_test: jobs past the cap are not tested, even one that could start",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2").running(100, "p", 4, 0, at(1000), "n1"),
                        List.of(job(1, 1, 100), job(2, 1, 100), job(3, 1, 100)), options(ReservationMode.CONSERVATIVE, 0, 0, 2),
                        "1 starts on n2", "2 reserved +100 on n2", "3 not tested"),
                scenario("bf_resolution: a start behind a running job is that job's end, to the second (as Slurm's "
                                + "StartTime); a held reservation ends on the resolution, rounded up",
                        consTres("CR_Core").nodes("n", 1, 4, 0).partition("p", "n1").running(100, "p", 4, 0, at(1000), "n1"),
                        List.of(job(1, 1, 600), job(2, 1, 600)), options(ReservationMode.CONSERVATIVE, 0, 300, 0),
                        "1 reserved +1000 on n1", "2 reserved +1700 on n1"),
                scenario("EASY: the top blocked job of each partition holds",
                        consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1").partition("q", "n2")
                                .running(100, "p", 4, 0, at(1000), "n1").running(101, "q", 4, 0, at(2000), "n2"),
                        List.of(job(1, 1, 600), job(2, 1, 600).partitions("q"), job(3, 1, 600)),
                        options(ReservationMode.EASY, 0, 0, 0),
                        "1 reserved +1000 on n1", "2 reserved +2000 on n2", "3 estimated +1600 on n1 (EASY)"),
                scenario("a job that lacks nothing but a usable partition gets that partition's reason",
                        consTres("CR_Core").nodes("n", 1, 4, 0).partition("p", "n1"),
                        List.of(job(1, 1, 600).partitions("nope")), options(ReservationMode.EASY, 0, 0, 0),
                        "1 no start PartitionConfig"),
                scenario("no start is promised behind a running job without a time limit",
                        consTres("CR_Core").nodes("n", 1, 4, 0).partition("p", "n1").running(100, "p", 4, 0, "n1"),
                        List.of(job(1, 1, 600)), options(ReservationMode.CONSERVATIVE, 0, 0, 0),
                        "1 no start Resources"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void backfill(String rule, DomainCluster cluster, List<BackfillJob> queue, BackfillOptions options, List<String> expected) {
        List<BackfillAnswer> answers = planner.backfill(cluster.view(), queue, options);

        assertEquals(expected, answers.stream().map(BackfillScenarioTest::describe).toList());
    }

    /** A job of {@code nodes} whole 4-CPU nodes with a time limit, in partition p, that may reserve. */
    private static QueuedJob job(long id, int nodes, long limitSeconds) {
        return new QueuedJob(aJob(id).partitions("p").nodes(nodes).tasks(4 * nodes)
                .with(o -> o.withTimeLimitSeconds(limitSeconds)).build(), true);
    }

    /** A queued job, built fluently; a {@link BackfillJob} once the scenario is made. */
    private record QueuedJob(ResourceRequest request, boolean mayReserve) {
        QueuedJob mayNotReserve() {
            return new QueuedJob(request, false);
        }

        QueuedJob partitions(String... names) {
            return new QueuedJob(new ResourceRequest(request.jobId(), List.of(names), request.minNodes(), request.maxNodes(),
                    request.numTasks(), request.cpusPerTask(), request.memPerNodeMb(), request.options()), mayReserve);
        }
    }

    private static BackfillOptions options(ReservationMode mode, long window, long resolution, int maxJobTest) {
        return new BackfillOptions(NOW, mode, window, resolution, maxJobTest);
    }

    private static Instant at(long seconds) {
        return NOW.plusSeconds(seconds);
    }

    private static Arguments scenario(String rule, DomainCluster cluster, List<?> queue, BackfillOptions options,
                                      String... expected) {
        List<BackfillJob> jobs = queue.stream().map(q -> q instanceof QueuedJob j ? new BackfillJob(j.request(), j.mayReserve())
                : (BackfillJob) q).toList();
        return Arguments.of(rule, cluster, jobs, options, Arrays.asList(expected));
    }

    private static String describe(BackfillAnswer answer) {
        return switch (answer) {
            case BackfillAnswer.StartNow start -> start.jobId() + " starts on "
                    + start.start().nodes().stream().map(NodeAllotment::node).sorted().collect(Collectors.joining(", "));
            case BackfillAnswer.Reserved reserved -> reserved.jobId() + " reserved " + when(reserved.reservation());
            case BackfillAnswer.Estimated estimated -> estimated.jobId() + " estimated " + when(estimated.reservation())
                    + " (" + estimated.why() + ")";
            case BackfillAnswer.NoStart none -> none.jobId() + " no start " + none.reason().slurmName();
            case BackfillAnswer.NotTested untested -> untested.jobId() + " not tested";
        };
    }

    private static String when(Placement.Reservation reservation) {
        return "+" + (reservation.start().getEpochSecond() - NOW.getEpochSecond()) + " on "
                + reservation.nodes().stream().sorted().collect(Collectors.joining(", "));
    }
}
