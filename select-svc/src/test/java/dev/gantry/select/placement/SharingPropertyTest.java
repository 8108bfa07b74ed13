package dev.gantry.select.placement;

import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.OverSubscribe;
import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.fixture.Shares;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over random clusters (select/linear and cons_tres), random running jobs in an OverSubscribe=FORCE:4 partition and in
 * another partition, and a random job: the job never lands on shared units while enough free units exist to place it;
 * more generally, every unit it takes is held by no more jobs than the lowest sharing level it fits at needs. That level
 * is found independently: the partition at FORCE:(L+1) lets a job use units held by at most L jobs.
 */
class SharingPropertyTest {

    private static final int LIMIT = 4;
    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** @param partition "p" (the FORCE one) or "q" */
    record Running(String partition, int firstNode, int width, int cpus, int memoryMb) {}

    record Scenario(String parameters, List<Integer> cpus, List<Running> running, int nodes, int tasksPerNode,
                    int memoryMb) {}

    @Property(tries = 500)
    void aJobTakesUnitsSharedNoMoreThanItMust(@ForAll("scenarios") Scenario s) {
        ReplicaView view = cluster(s).view();
        ResourceRequest job = aJob(1).partitions("p").nodes(s.nodes()).tasks(s.nodes() * s.tasksPerNode())
                .mem(s.memoryMb()).build();
        int lowest = -1;
        for (int level = 0; level < LIMIT && lowest < 0; level++) {
            ReplicaView capped = view.withPartition(view.partition("p").orElseThrow()
                    .withOversubscribe(Shares.oversubscribe("FORCE:" + (level + 1))));
            if (planner.plan(capped, List.of(job), false).getFirst() instanceof Placement.Start) {
                lowest = level;
            }
        }

        Placement placement = planner.plan(view, List.of(job), false).getFirst();

        if (lowest < 0) {
            assertInstanceOf(Placement.Pending.class, placement, "placed though it fits at no level: " + s);
            return;
        }
        Placement.Start start = assertInstanceOf(Placement.Start.class, placement, "fits at level " + lowest + ": " + s);
        Ledger before = Ledger.base(view);
        for (NodeAllotment share : start.nodes()) {
            int node = view.indexOf(share.node());
            for (int u = share.units().nextSetBit(0); u >= 0; u = share.units().nextSetBit(u + 1)) {
                int holders = before.holdersOf(node, u);
                assertTrue(holders <= lowest, (lowest == 0 ? "took a shared unit while free ones sufficed: "
                        : "took a unit held by " + holders + " jobs though it fits at level " + lowest + ": ")
                        + share + " in " + s);
            }
        }
    }

    private static DomainCluster cluster(Scenario s) {
        DomainCluster cluster = s.parameters().equals("linear") ? DomainCluster.linear() : DomainCluster.consTres(s.parameters());
        String[] names = new String[s.cpus().size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = "n" + i;
            cluster.node(names[i], s.cpus().get(i), 1000);
        }
        cluster.partition("p", names).oversubscribe("p", "FORCE:" + LIMIT).partition("q", names);
        long id = 100;
        for (Running r : s.running()) {
            int width = Math.min(r.width(), names.length);
            String[] on = new String[width];
            int cpus = r.cpus();
            for (int k = 0; k < width; k++) {
                int node = (r.firstNode() + k) % names.length;
                on[k] = names[node];
                cpus = Math.min(cpus, s.cpus().get(node));
            }
            cluster.running(id++, r.partition(), cpus, r.memoryMb(), on);
        }
        return cluster;
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Running> running = Combinators.combine(Arbitraries.of("p", "p", "p", "q"), Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 8),
                Arbitraries.integers().between(0, 300)).as(Running::new);
        return Combinators.combine(Arbitraries.of("linear", "CR_Core", "CR_CPU", "CR_Core_Memory", "CR_CPU_Memory"),
                Arbitraries.integers().between(1, 8).list().ofMinSize(1).ofMaxSize(6), running.list().ofMaxSize(12),
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(0, 300)).as(Scenario::new);
    }
}
