package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.lease.LeaseTerms;
import dev.gantry.scheduler.store.Database;
import dev.gantry.scheduler.store.LeaseTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two controllers' hold on the lease, on a real (embedded) PostgreSQL: who waits, who takes over, who stops. */
class ControllerLeaseTest {

    private static final LeaseTerms SHORT = new LeaseTerms(Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofMillis(100));

    @TempDir
    Path stateDir;

    @Test
    void theStandbyWaits_redirectingToTheActiveOne_andTakesOverAtOnceWhenItStopsGracefully() throws Exception {
        try (Database db = Database.embedded(stateDir, 6)) {
            List<String> deposed = new CopyOnWriteArrayList<>();
            ControllerLease active = new ControllerLease(new LeaseTable(db.dataSource()), "ctl0", "h:1", SHORT, new SimpleMeterRegistry(), deposed::add);
            long first = active.await(l -> { throw new AssertionError("nobody holds it yet"); });
            active.startRenewing();

            ControllerLease standby = new ControllerLease(new LeaseTable(db.dataSource()), "ctl1", "h:2", SHORT, new SimpleMeterRegistry(), deposed::add);
            List<String> redirects = new CopyOnWriteArrayList<>();
            CompletableFuture<Long> takeover = CompletableFuture.supplyAsync(() -> {
                try {
                    return standby.await(l -> redirects.add(l.address()));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            TestWait.await("the standby has polled several times", () -> redirects.size() >= 3);
            assertFalse(takeover.isDone(), "it waits while the active one renews");
            assertTrue(redirects.stream().allMatch("h:1"::equals), "and redirects to it");

            active.close(); // a graceful stop lets the lease expire now
            assertEquals(first + 1, takeover.get(30, TimeUnit.SECONDS));
            assertTrue(standby.held());
            assertEquals(List.of(), deposed);
            standby.close();
        }
    }

    @Test
    void aHolderWhoseLeaseWasTaken_isDeposedByItsNextRenewal_andHoldsNothingMore() throws Exception {
        try (Database db = Database.embedded(stateDir, 6)) {
            List<String> deposed = new CopyOnWriteArrayList<>();
            ControllerLease active = new ControllerLease(new LeaseTable(db.dataSource()), "ctl0", "h:1", SHORT, new SimpleMeterRegistry(), deposed::add);
            active.await(l -> { });
            active.startRenewing();
            assertTrue(active.held());
            try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
                // what a standby's takeover leaves in the row
                s.executeUpdate("UPDATE controller_lease SET holder = 'ctl1', fencing = fencing + 1");
            }
            TestWait.await("the renewal finds the lease taken", () -> !deposed.isEmpty());
            assertTrue(deposed.get(0).contains("another controller took over"), deposed.get(0));
            assertFalse(active.held(), "its agent calls are refused before they are sent");
            assertEquals(1, deposed.size(), "told once");
            active.close();
        }
    }

    @Test
    void aHolderSilentPastItsLease_holdsNothingUntilARenewalShowsNobodyTookIt_andGoesOn() throws Exception {
        try (Database db = Database.embedded(stateDir, 6)) {
            List<String> deposed = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
            ControllerLease active = new ControllerLease(new LeaseTable(db.dataSource()), "ctl0", "h:1", SHORT,
                    new SimpleMeterRegistry(), deposed::add, nanos::get);
            long fencing = active.await(l -> { });
            assertTrue(active.held());

            nanos.addAndGet(SHORT.ttl().plusSeconds(10).toNanos()); // resumed after a stop longer than the lease
            assertFalse(active.held(), "its agent calls are refused until it knows the lease is still its own");
            active.startRenewing();
            TestWait.await("a renewal finds the lease still its own", active::held);
            assertEquals(List.of(), deposed, "a lone controller goes on after a pause");
            assertEquals(fencing, active.fencing());
            active.close();
        }
    }
}
