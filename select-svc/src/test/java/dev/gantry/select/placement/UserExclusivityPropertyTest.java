package dev.gantry.select.placement;

import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.placement.Owner;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.model.ReplicaView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over random clusters, running jobs and queues of three users, some user-exclusive: no two jobs of different users where
 * one is user-exclusive ever hold one node at the same time — running jobs, starts and held reservations alike.
 */
class UserExclusivityPropertyTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private static final long NEVER = Long.MAX_VALUE;
    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** @param end seconds from now, 0 = no end */
    record Running(Owner owner, int node, int cpus, long end) {}

    /** @param limit seconds, 0 = none */
    record Queued(Owner owner, int tasks, int nodes, long limit) {}

    record Scenario(List<Integer> cores, List<Running> running, List<Queued> queue, boolean reserve) {}

    /** A job holding a node over [from, until) (epoch seconds). */
    private record Hold(Owner owner, String node, long from, long until, String what) {}

    @Property(tries = 400)
    void noNodeEverHoldsConflictingUsersAtOnce(@ForAll("scenarios") Scenario s) {
        DomainCluster cluster = DomainCluster.consTres("CR_Core");
        String[] names = new String[s.cores().size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = "n" + i;
            cluster.node(names[i], s.cores().get(i), 0);
        }
        cluster.partition("p", names);
        List<Hold> holds = new ArrayList<>();
        long id = 1_000;
        for (Running r : s.running()) {
            int node = r.node() % names.length;
            int cpus = Math.min(r.cpus(), s.cores().get(node));
            Instant end = r.end() == 0 ? null : NOW.plusSeconds(r.end());
            cluster.runningBy(r.owner(), id++, "p", cpus, end, names[node]);
            holds.add(new Hold(r.owner(), names[node], 0, end == null ? NEVER : end.getEpochSecond(), "running"));
        }
        ReplicaView view = cluster.view();
        List<ResourceRequest> requests = new ArrayList<>();
        for (int i = 0; i < s.queue().size(); i++) {
            Queued q = s.queue().get(i);
            requests.add(aJob(i + 1).partitions("p").nodes(q.nodes()).tasks(Math.max(q.nodes(), q.tasks())).by(q.owner())
                    .with(o -> o.withTimeLimitSeconds(q.limit())).build());
        }

        List<Placement> placements = planner.plan(view, requests, new PlanOptions(false, s.reserve(), NOW));

        long now = NOW.getEpochSecond();
        for (int i = 0; i < placements.size(); i++) {
            Owner owner = requests.get(i).owner();
            long limit = requests.get(i).options().timeLimitSeconds();
            switch (placements.get(i)) {
                case Placement.Start start -> start.nodes().forEach(n -> holds.add(
                        new Hold(owner, n.node(), now, limit == 0 ? NEVER : now + limit, "start of " + start.jobId())));
                case Placement.Pending pending -> pending.reservation().ifPresent(r -> {
                    long from = r.start().getEpochSecond();
                    r.nodes().forEach(n -> holds.add(new Hold(owner, n, from, limit == 0 ? NEVER : from + limit,
                            "reservation of " + pending.jobId())));
                });
            }
        }
        for (int a = 0; a < holds.size(); a++) {
            for (int b = a + 1; b < holds.size(); b++) {
                Hold x = holds.get(a);
                Hold y = holds.get(b);
                if (x.what().equals("running") && y.what().equals("running")) {
                    continue; // random running jobs may conflict: the replica shows what is; the plan's additions count
                }
                boolean together = x.node().equals(y.node()) && x.from() < y.until() && y.from() < x.until();
                assertTrue(!together || !x.owner().conflictsWith(y.owner()), x + " and " + y + " in " + s);
            }
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Owner> owner = Combinators.combine(Arbitraries.of("alice", "bob", "carol"), Arbitraries.of(false, false, true))
                .as(Owner::new);
        Arbitrary<Running> running = Combinators.combine(owner, Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(1, 4), Arbitraries.of(0L, 600L, 1800L, 3600L)).as(Running::new);
        Arbitrary<Queued> queued = Combinators.combine(owner, Arbitraries.integers().between(1, 6),
                Arbitraries.integers().between(1, 2), Arbitraries.of(0L, 300L, 900L, 3600L)).as(Queued::new);
        return Combinators.combine(Arbitraries.integers().between(1, 8).list().ofMinSize(1).ofMaxSize(5),
                running.list().ofMaxSize(6), queued.list().ofMinSize(1).ofMaxSize(10), Arbitraries.of(false, true))
                .as(Scenario::new);
    }
}
