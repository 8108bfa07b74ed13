package dev.gantry.scheduler.store;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.lease.LeaseRules;
import dev.gantry.scheduler.lease.LeaseTerms;
import dev.gantry.scheduler.model.JobRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller lease and the writers' fence, against a real (embedded) PostgreSQL. */
class ControllerLeaseStoreTest {

    /** Short enough to expire within a test; the rules are the production ones. */
    private static final LeaseTerms SHORT = new LeaseTerms(Duration.ofMillis(400), Duration.ofMillis(100), Duration.ofMillis(100));

    @TempDir
    Path stateDir;

    @Test
    void aSecondControllerWaitsWhileTheLeaseIsHeld_andTakesItOnceExpired_withTheNextFencingNumber() throws Exception {
        try (Database db = Database.embedded(stateDir, 4)) {
            LeaseTable leases = new LeaseTable(db.dataSource());
            long first = assertInstanceOf(LeaseRules.Claim.Take.class, leases.claim("ctl0", "127.0.0.1:1", SHORT)).lease().fencing();
            LeaseRules.Claim.Wait wait = assertInstanceOf(LeaseRules.Claim.Wait.class, leases.claim("ctl1", "127.0.0.1:2", SHORT));
            assertEquals("127.0.0.1:1", wait.active().address(), "the standby learns where to redirect");
            assertTrue(leases.renew(first, SHORT));
            // let it expire (no renewal), on the database's clock
            awaitExpiry(leases);
            long second = assertInstanceOf(LeaseRules.Claim.Take.class, leases.claim("ctl1", "127.0.0.1:2", SHORT)).lease().fencing();
            assertEquals(first + 1, second);
            assertFalse(leases.renew(first, SHORT), "the deposed controller's renewal is refused");
            assertTrue(leases.renew(second, SHORT));
        }
    }

    @Test
    void aDeposedControllersNextCommitIsRefused_andItsWriterStops_whileTheNewOnesCommits() throws Exception {
        try (Database db = Database.embedded(stateDir, 4)) {
            LeaseTable leases = new LeaseTable(db.dataSource());
            long old = ((LeaseRules.Claim.Take) leases.claim("ctl0", "a:1", SHORT)).lease().fencing();
            JdbcJobStore oldStore = new JdbcJobStore(db.dataSource());
            oldStore.fence(old);
            CountDownLatch fenced = new CountDownLatch(1);
            try (GroupCommitWriter oldWriter = new GroupCommitWriter(oldStore, n -> { }, e -> fenced.countDown())) {
                oldWriter.write(aJob(1).build()).get(30, TimeUnit.SECONDS); // committed while it holds the lease

                awaitExpiry(leases);
                long fresh = ((LeaseRules.Claim.Take) leases.claim("ctl1", "b:2", SHORT)).lease().fencing();
                JdbcJobStore newStore = new JdbcJobStore(db.dataSource());
                newStore.fence(fresh);

                JobRecord changed = aJob(1).build().toBuilder().priority(7).build();
                CompletableFuture<Void> refused = oldWriter.write(changed);
                CompletionException e = assertThrows(CompletionException.class, refused::join);
                assertInstanceOf(FencedException.class, e.getCause());
                assertTrue(fenced.await(30, TimeUnit.SECONDS), "the writer told its controller it is deposed");
                assertThrows(CompletionException.class, () -> oldWriter.write(aJob(2).build()).join(), "and takes nothing more");
                assertThrows(FencedException.class, () -> oldStore.write(List.of(aJob(3).build()), List.of(
                        new dev.gantry.scheduler.control.StepChange.Ended(1, 0))), "the transaction with steps is fenced too");

                assertEquals(aJob(1).build(), newStore.find(1).orElseThrow(), "the deposed controller changed nothing");
                assertTrue(newStore.find(2).isEmpty() && newStore.find(3).isEmpty());
                newStore.write(List.of(changed));
                assertEquals(7, newStore.find(1).orElseThrow().priority(), "the new controller writes");
                assertEquals(List.of(1L), newStore.loadCurrent(T0).stream().map(JobRecord::id).toList());
            }
        }
    }

    @Test
    void aDeposedControllersFairShareAndQosWritesAreRefused_theNewOnesLand() throws Exception {
        try (Database db = Database.embedded(stateDir, 4)) {
            LeaseTable leases = new LeaseTable(db.dataSource());
            long old = ((LeaseRules.Claim.Take) leases.claim("ctl0", "a:1", SHORT)).lease().fencing();
            JdbcStateStore oldState = new JdbcStateStore(db.dataSource()).fence(old);
            oldState.put("fairshare", new byte[] {1});
            assertEquals(1, oldState.get("fairshare").orElseThrow()[0], "written while it holds the lease");

            awaitExpiry(leases);
            long fresh = ((LeaseRules.Claim.Take) leases.claim("ctl1", "b:2", SHORT)).lease().fencing();
            JdbcStateStore newState = new JdbcStateStore(db.dataSource()).fence(fresh);
            newState.put("fairshare", new byte[] {2});

            assertThrows(FencedException.class, () -> oldState.put("fairshare", new byte[] {9}));
            assertThrows(FencedException.class, () -> oldState.put("qos", new byte[] {9}), "a new name is fenced too");
            assertEquals(2, newState.get("fairshare").orElseThrow()[0], "the successor's usage stands");
            assertTrue(newState.get("qos").isEmpty());
        }
    }

    private static void awaitExpiry(LeaseTable leases) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            LeaseTable.Seen seen = leases.read();
            if (seen.lease().expiredAt(seen.now())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the lease did not expire: " + seen);
            }
            Thread.sleep(50);
        }
    }
}
