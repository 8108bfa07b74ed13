package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * BackfillPolicy=PREEMPT in the backfill pass's call ({@link OverReservations}): the eligible jobs the pass left blocked
 * for lack of resources are placed once more ignoring reservations, after the jobs holding one, on what the pass's own
 * starts leave free. Three nodes of 4 CPUs; n1 is busy until +1000.
 */
class OverReservationsTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private final PlacementPlanner planner = PlacementPlanner.standard();

    private static DomainCluster cluster() {
        return consTres("CR_Core").nodes("n", 3, 4, 0).partition("p", "n1", "n2", "n3")
                .running(100, "p", 4, 0, NOW.plusSeconds(1000), "n1");
    }

    /** Job 1 wants all three nodes (reserved at +1000); job 2 one node for longer than that; job 3 one node briefly. */
    private static List<BackfillJob> queue() {
        return List.of(job(1, 3, 1000), job(2, 1, 5000), job(3, 1, 500));
    }

    private List<String> overReservations(Set<Long> eligible) {
        ReplicaView view = cluster().view();
        List<BackfillJob> jobs = queue();
        List<BackfillAnswer> answers = planner.backfill(view, jobs,
                new BackfillOptions(NOW, ReservationMode.CONSERVATIVE, 0, 0, 0));
        // the pass itself: job 1 holds n[1-3] from +1000, job 2 would delay it, job 3 ends before it and starts now
        assertEquals(List.of("Reserved", "Reserved", "StartNow"),
                answers.stream().map(a -> a.getClass().getSimpleName()).toList());
        return OverReservations.place(planner, view, jobs, answers, eligible).stream()
                .map(s -> s.jobId() + " on " + s.nodes().stream().map(NodeAllotment::node).toList()).toList();
    }

    @Test
    void aBlockedEligibleJobStartsOnWhatThePassesStartsLeaveFree() {
        // job 3 starts on n2 in the pass, so job 2 gets n3, not n2 (the first free node of a cluster without job 3)
        assertEquals(List.of("2 on [n3]"), overReservations(Set.of(2L)));
    }

    @Test
    void aJobHoldingAReservationIsPlacedFirst_aLowerEligibleJobDoesNotTakeWhatItNeeds() {
        // job 1 cannot start now either way; job 2 is placed after it and still gets n3
        assertEquals(List.of("2 on [n3]"), overReservations(Set.of(1L, 2L)));
    }

    @Test
    void onlyEligibleBlockedJobsAreTried() {
        assertEquals(List.of(), overReservations(Set.of(3L)), "job 3 started in the pass itself");
        assertEquals(List.of(), overReservations(Set.of()));
    }

    @Test
    void aStartNowFromThePassIsHeld_evenWhenItTakesTheLastFreeNode() {
        // two nodes, n1 busy until +1000: job 1 wants both (reserved), job 3 fits before it on n2, job 2 does not
        DomainCluster two = consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                .running(100, "p", 4, 0, NOW.plusSeconds(1000), "n1");
        List<BackfillJob> jobs = List.of(job(1, 2, 1000), job(2, 1, 5000), job(3, 1, 500));
        ReplicaView view = two.view();
        List<BackfillAnswer> answers = planner.backfill(view, jobs,
                new BackfillOptions(NOW, ReservationMode.CONSERVATIVE, 0, 0, 0));
        assertEquals(List.of(), OverReservations.place(planner, view, jobs, answers, Set.of(2L)),
                "n2 is job 3's: nothing is free for job 2");
    }

    private static BackfillJob job(long id, int nodes, long limitSeconds) {
        return new BackfillJob(aJob(id).partitions("p").nodes(nodes).tasks(4 * nodes)
                .with(o -> o.withTimeLimitSeconds(limitSeconds)).build(), true);
    }
}
