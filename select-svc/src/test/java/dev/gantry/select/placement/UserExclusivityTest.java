package dev.gantry.select.placement;

import static dev.gantry.select.fixture.DomainCluster.consTres;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.placement.Owner;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.JobFixture;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * User exclusivity in placement (https://slurm.schedmd.com/sbatch.html#OPT_exclusive: with --exclusive=user "the job
 * allocation can not share nodes with other running jobs" of other users; https://slurm.schedmd.com/slurm.conf.html
 * #OPT_ExclusiveUser: with ExclusiveUser=YES "nodes will be exclusively allocated to users"): a node holding another
 * user's job is not used when either job is user-exclusive; one user's jobs share as usual. Nodes n1..n3 have 4 cores
 * (CR_Core), all in partition "p" unless said; best fit would otherwise put a 1-core job beside a running one. Outcomes
 * read "JOB on NODES" or "JOB pending REASON[, from +SECONDS on NODES]".
 */
class UserExclusivityTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private static final Owner ALICE_ONLY = new Owner("alice", true);
    private static final Owner ALICE = new Owner("alice", false);
    private static final Owner BOB_ONLY = new Owner("bob", true);
    private static final Owner BOB = new Owner("bob", false);
    private static final Owner CAROL = new Owner("carol", false);

    private final PlacementPlanner planner = PlacementPlanner.standard();

    static Stream<Arguments> startNow() {
        return Stream.of(
                rule("alice's --exclusive=user job keeps bob's ordinary job off its node",
                        cluster().runningBy(ALICE_ONLY, 100, "p", 1, null, "n1"),
                        List.of(job(1, BOB)),
                        "1 on n2"),
                rule("bob's --exclusive=user job does not go onto a node running alice's ordinary job",
                        cluster().runningBy(ALICE, 100, "p", 1, null, "n1"),
                        List.of(job(1, BOB_ONLY)),
                        "1 on n2"),
                rule("one user's jobs share: alice's jobs join her user-exclusive job",
                        cluster().runningBy(ALICE_ONLY, 100, "p", 1, null, "n1"),
                        List.of(job(1, ALICE), job(2, ALICE_ONLY)),
                        "1 on n1", "2 on n1"),
                rule("ordinary jobs of different users share as before",
                        cluster().runningBy(ALICE, 100, "p", 1, null, "n1"),
                        List.of(job(1, BOB)),
                        "1 on n1"),
                rule("ExclusiveUser=YES: a job in the partition is user-exclusive without asking",
                        cluster().exclusiveUser("p").runningBy(ALICE, 100, "p", 1, null, "n1"),
                        List.of(job(1, BOB), job(2, ALICE)),
                        "1 on n2", "2 on n1"),
                rule("ExclusiveUser=YES: its running jobs keep other partitions' jobs of other users off their nodes",
                        cluster().partition("q", "n1", "n2", "n3").exclusiveUser("p").runningBy(ALICE, 100, "p", 1, null, "n1"),
                        List.of(aJob(1).partitions("q").by(BOB)),
                        "1 on n2"),
                rule("within one plan: alice's user-exclusive start keeps bob's later job off her node",
                        cluster(),
                        List.of(job(1, ALICE_ONLY), job(2, BOB), job(3, ALICE)),
                        "1 on n1", "2 on n2", "3 on n1"),
                rule("a node of two users is closed to both users' user-exclusive jobs",
                        cluster().runningBy(ALICE, 100, "p", 1, null, "n1").runningBy(BOB, 101, "p", 1, null, "n1")
                                .runningBy(CAROL, 102, "p", 4, null, "n2", "n3"),
                        List.of(job(1, ALICE_ONLY), job(2, BOB_ONLY), job(3, CAROL)),
                        "1 pending Resources", "2 pending Resources", "3 on n1"),
                rule("an unknown user's job counts as another user's",
                        cluster().runningBy(ALICE_ONLY, 100, "p", 1, null, "n1"),
                        List.of(job(1, Owner.NONE)),
                        "1 on n2"),
                rule("a multi-node user-exclusive job takes only nodes free of other users",
                        cluster().runningBy(BOB, 100, "p", 1, null, "n2"),
                        List.of(job(1, ALICE_ONLY).nodes(2).tasks(2)),
                        "1 on n1, n3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("startNow")
    void placesByTheRule(String rule, DomainCluster cluster, List<JobFixture> jobs, List<String> expected) {
        List<Placement> placements = planner.plan(cluster.view(), jobs.stream().map(JobFixture::build).toList(), false);

        assertEquals(expected, placements.stream().map(UserExclusivityTest::describe).toList());
    }

    static Stream<Arguments> reservations() {
        return Stream.of(
                rule("a blocked user-exclusive job is reserved from the end of another user's job on the node",
                        cluster().runningBy(BOB, 100, "p", 1, at(3600), "n1").runningBy(CAROL, 101, "p", 4, at(7200), "n2", "n3"),
                        List.of(job(1, ALICE_ONLY).tasks(2).with(o -> o.withTimeLimitSeconds(600))),
                        "1 pending Resources, from +3600 on n1"),
                rule("a blocked job is not reserved beside another user's user-exclusive job",
                        cluster().runningBy(ALICE_ONLY, 100, "p", 1, at(7200), "n1").runningBy(CAROL, 101, "p", 4, at(3600), "n2", "n3"),
                        List.of(job(1, BOB).tasks(2).with(o -> o.withTimeLimitSeconds(600))),
                        "1 pending Resources, from +3600 on n2"),
                rule("a user-exclusive job of the same user is reserved beside her job at once",
                        cluster().runningBy(ALICE_ONLY, 100, "p", 3, at(7200), "n1").runningBy(CAROL, 101, "p", 4, at(3600), "n2", "n3"),
                        List.of(job(1, ALICE).tasks(2).with(o -> o.withTimeLimitSeconds(600))),
                        "1 pending Resources, from +3600 on n2"),
                rule("a later job does not start now beside an earlier user-exclusive reservation of another user",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").runningBy(CAROL, 100, "p", 3, at(3600), "n1"),
                        List.of(job(1, ALICE_ONLY).tasks(2).with(o -> o.withTimeLimitSeconds(600)),
                                job(2, BOB).with(o -> o.withTimeLimitSeconds(7200))),
                        "1 pending Resources, from +3600 on n1", "2 pending Resources, from +4200 on n1"),
                rule("a later job starts now where it ends before another user's user-exclusive reservation",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").runningBy(CAROL, 100, "p", 3, at(3600), "n1"),
                        List.of(job(1, ALICE_ONLY).tasks(2).with(o -> o.withTimeLimitSeconds(600)),
                                job(2, CAROL).with(o -> o.withTimeLimitSeconds(1800))),
                        "1 pending Resources, from +3600 on n1", "2 on n1"),
                rule("two users' reservations do not overlap on a node when one is user-exclusive",
                        consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").runningBy(CAROL, 100, "p", 4, at(3600), "n1"),
                        List.of(job(1, ALICE_ONLY).with(o -> o.withTimeLimitSeconds(600)),
                                job(2, BOB).with(o -> o.withTimeLimitSeconds(600))),
                        "1 pending Resources, from +3600 on n1", "2 pending Resources, from +4200 on n1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reservations")
    void reservesByTheRule(String rule, DomainCluster cluster, List<JobFixture> jobs, List<String> expected) {
        List<Placement> placements = planner.plan(cluster.view(), jobs.stream().map(JobFixture::build).toList(),
                new PlanOptions(false, true, NOW));

        assertEquals(expected, placements.stream().map(UserExclusivityTest::describe).toList());
    }

    @Test
    void aSearchThatFailedForOneUserIsNotTakenAsFailedForAnother() {
        // bob's job finds no start within the window beside alice's user-exclusive reservation; alice's own job of the
        // same shape still may share with it.
        DomainCluster cluster = consTres("CR_Core").node("n1", 4, 0).partition("p", "n1")
                .runningBy(CAROL, 100, "p", 4, at(3600), "n1");
        List<ResourceRequest> jobs = Stream.of(job(1, ALICE_ONLY), job(2, BOB), job(3, ALICE))
                .map(j -> j.with(o -> o.withTimeLimitSeconds(600)).build()).toList();

        List<Placement> placements = planner.plan(cluster.view(), jobs, new PlanOptions(false, true, NOW, 4000));

        assertEquals(List.of("1 pending Resources, from +3600 on n1", "2 pending Resources",
                "3 pending Resources, from +3600 on n1"), placements.stream().map(UserExclusivityTest::describe).toList());
    }

    @Test
    void backfill_startsNothingThatWouldDelayAnotherUsersUserExclusiveReservation() {
        DomainCluster cluster = consTres("CR_Core").nodes("n", 2, 4, 0).partition("p", "n1", "n2")
                .runningBy(CAROL, 100, "p", 3, at(3600), "n1").runningBy(CAROL, 101, "p", 4, at(7200), "n2");
        List<BackfillJob> jobs = Stream.of(job(1, ALICE_ONLY).tasks(2), job(2, BOB), job(3, ALICE))
                .map(j -> new BackfillJob(j.with(o -> o.withTimeLimitSeconds(7200)).build(), true)).toList();

        List<BackfillAnswer> answers = planner.backfill(cluster.view(), jobs,
                new BackfillOptions(NOW, ReservationMode.CONSERVATIVE, 0, 0, 0));

        assertEquals(List.of("Reserved 1 +3600 [n1]", "Reserved 2 +7200 [n2]", "StartNow 3 [n1]"),
                answers.stream().map(UserExclusivityTest::describe).toList());
    }

    @Test
    void preemption_aUserExclusiveJobFitsOnlyOnceTheOtherUsersJobIsGone() {
        ReplicaView view = consTres("CR_Core").node("n1", 4, 0).partition("p", "n1")
                .runningBy(BOB, 100, "p", 1, null, "n1").view();
        ResourceRequest alice = job(1, ALICE_ONLY).build();

        assertTrue(new StartTrial(view).startWithout(alice, List.of()).isEmpty(), "bob's job is on n1");
        assertEquals(Optional.of(List.of("n1")), new StartTrial(view).startWithout(alice, List.of(100L))
                .map(s -> s.nodes().stream().map(NodeAllotment::node).toList()));
        assertTrue(new StartTrial(view).suspending(List.of(100L)).startWithout(alice, List.of(100L)).isPresent(),
                "a suspended victim gives its place up as well");
    }

    @Test
    void preemption_aDecidedStartKeepsItsOwnerForTheQueriesAfterIt() {
        ReplicaView view = consTres("CR_Core").node("n1", 4, 0).partition("p", "n1").view();
        ResourceRequest alice = job(1, ALICE_ONLY).build();
        Placement.Start start = new StartTrial(view).startWithout(alice, List.of()).orElseThrow();

        StartTrial after = new StartTrial(view).after(List.of(), start, alice);

        assertTrue(after.startWithout(job(2, BOB).build(), List.of()).isEmpty());
        assertTrue(after.startWithout(job(3, ALICE).build(), List.of()).isPresent());
    }

    /** n1..n3, 4 cores each, in partition "p". */
    private static DomainCluster cluster() {
        return consTres("CR_Core").nodes("n", 3, 4, 0).partition("p", "n1", "n2", "n3");
    }

    private static JobFixture job(long id, Owner owner) {
        return aJob(id).partitions("p").by(owner);
    }

    private static Instant at(long seconds) {
        return NOW.plusSeconds(seconds);
    }

    private static Arguments rule(String rule, DomainCluster cluster, List<JobFixture> jobs, String... expected) {
        return Arguments.of(rule, cluster, jobs, Arrays.asList(expected));
    }

    private static String describe(BackfillAnswer answer) {
        return switch (answer) {
            case BackfillAnswer.StartNow start -> "StartNow " + start.start().jobId() + " "
                    + start.start().nodes().stream().map(NodeAllotment::node).toList();
            case BackfillAnswer.Reserved r -> "Reserved " + r.jobId() + " +"
                    + (r.reservation().start().getEpochSecond() - NOW.getEpochSecond()) + " " + r.reservation().nodes();
            default -> answer.toString();
        };
    }

    private static String describe(Placement placement) {
        return switch (placement) {
            case Placement.Start start -> start.jobId() + " on "
                    + start.nodes().stream().map(NodeAllotment::node).collect(Collectors.joining(", "));
            case Placement.Pending pending -> pending.jobId() + " pending " + pending.reason().slurmName()
                    + pending.reservation().map(r -> ", from +" + (r.start().getEpochSecond() - NOW.getEpochSecond()) + " on "
                    + String.join(", ", r.nodes())).orElse("");
        };
    }
}
