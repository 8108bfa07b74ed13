package dev.gantry.scheduler.store;

import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GroupCommitWriterTest {

    /** Records each transaction; can be told to fail the next few and to hold the first one. */
    static final class RecordingStore implements JobStore {
        final List<List<JobRecord>> transactions = new ArrayList<>();
        final List<List<StepChange>> stepTransactions = new ArrayList<>();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch releaseFirst = new CountDownLatch(1);
        int failures;

        @Override
        public synchronized void write(List<JobRecord> jobs, List<StepChange> steps) throws StoreException {
            firstStarted.countDown();
            try {
                releaseFirst.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failures > 0) {
                failures--;
                throw new StoreException("database unavailable", null);
            }
            transactions.add(List.copyOf(jobs));
            stepTransactions.add(List.copyOf(steps));
        }

        @Override public StoredSteps loadSteps() { return StoredSteps.NONE; }
        @Override public List<JobRecord> loadCurrent(Instant since) { return List.of(); }
        @Override public Optional<JobRecord> find(long id) { return Optional.empty(); }
        @Override public long maxJobId() { return 0; }
    }

    @Test
    void writesQueuedDuringACommit_shareTheNextTransaction_newestVersionOnly() throws Exception {
        RecordingStore store = new RecordingStore();
        List<Integer> batches = new ArrayList<>();
        try (GroupCommitWriter writer = new GroupCommitWriter(store, batches::add)) {
            CompletableFuture<Void> first = writer.write(aJob(1).build());
            assertTrue(store.firstStarted.await(10, TimeUnit.SECONDS));
            // While job 1 commits, three more writes arrive: two versions of job 2 and job 3.
            var j2 = aJob(2).build();
            List<CompletableFuture<Void>> later = List.of(writer.write(j2), writer.write(j2.toBuilder().pendingReason(PendingReason.RESOURCES).build()),
                    writer.write(aJob(3).build()));
            store.releaseFirst.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (var f : later) {
                f.get(10, TimeUnit.SECONDS);
            }
        }
        assertEquals(2, store.transactions.size());
        assertEquals(List.of(1L), store.transactions.get(0).stream().map(JobRecord::id).toList());
        assertEquals(List.of(2L, 3L), store.transactions.get(1).stream().map(JobRecord::id).toList());
        assertEquals("Resources", store.transactions.get(1).get(0).reason(), "the newest version of job 2 is written");
        assertEquals(List.of(1, 3), batches);
    }

    @Test
    void aFailedTransactionIsRetried_andItsWritesCompleteOnlyOnceCommitted() throws Exception {
        RecordingStore store = new RecordingStore();
        store.failures = 2;
        store.releaseFirst.countDown();
        try (GroupCommitWriter writer = new GroupCommitWriter(store, n -> {})) {
            writer.commit(aJob(1).build()).get(30, TimeUnit.SECONDS);
        }
        assertEquals(1, store.transactions.size());
    }

    @Test
    void aFailedCommit_marksTheDatabaseDown_answersItsCallerUnavailable_andTheWriteStillCommitsLater() throws Exception {
        RecordingStore store = new RecordingStore();
        store.failures = 2;
        DatabaseAvailability availability = new DatabaseAvailability();
        List<String> changes = new java.util.concurrent.CopyOnWriteArrayList<>();
        availability.onChange(c -> changes.add(c.orElse("up")));
        try (GroupCommitWriter writer = new GroupCommitWriter(store, n -> {}, availability)) {
            CompletableFuture<Void> answer = writer.write(aJob(1).build());
            assertTrue(store.firstStarted.await(10, TimeUnit.SECONDS));
            store.releaseFirst.countDown();
            ExecutionException e = assertThrows(ExecutionException.class, () -> answer.get(30, TimeUnit.SECONDS));
            assertInstanceOf(DatabaseUnavailable.class, e.getCause());
            assertEquals("database unavailable: commit failed: database unavailable", e.getCause().getMessage());
            writer.commit(aJob(2).build()).get(30, TimeUnit.SECONDS); // queued behind job 1: both committed by now
            assertTrue(availability.isUp(), "a commit marks the database up");
        }
        assertEquals(List.of(1L, 2L), store.transactions.stream().flatMap(List::stream).map(JobRecord::id).toList(),
                "the write its caller was told UNAVAILABLE was not lost");
        assertEquals(List.of("commit failed: database unavailable", "up"), changes, "one outage, told once");
    }

    @Test
    void whileTheDatabaseIsDown_aNewWriteIsAnsweredUnavailableAtOnce() throws Exception {
        RecordingStore store = new RecordingStore();
        DatabaseAvailability availability = new DatabaseAvailability();
        availability.down("the embedded PostgreSQL (pid 1) exited");
        try (GroupCommitWriter writer = new GroupCommitWriter(store, n -> {}, availability)) {
            // the store holds the first transaction until released: otherwise the writer may commit the write (and
            // find the database up) before write() returns, and the answer is then rightly a success
            CompletableFuture<Void> answer = writer.write(aJob(1).build());
            assertTrue(answer.isCompletedExceptionally(), "no waiting for a database known to be down");
            store.releaseFirst.countDown();
            writer.commit(aJob(2).build()).get(30, TimeUnit.SECONDS);
            assertTrue(availability.isUp());
        }
        assertEquals(List.of(1L, 2L), store.transactions.stream().flatMap(List::stream).map(JobRecord::id).toList());
    }

    @Test
    void closedWhileTheDatabaseIsDown_givesUpOnWhatIsLeft_failingItsFutures_insteadOfHanging() throws Exception {
        RecordingStore store = new RecordingStore();
        store.failures = Integer.MAX_VALUE;
        store.releaseFirst.countDown();
        DatabaseAvailability availability = new DatabaseAvailability();
        GroupCommitWriter writer = new GroupCommitWriter(store, n -> {}, availability);
        CompletableFuture<Void> durable = writer.commit(aJob(1).build());
        assertTrue(store.firstStarted.await(10, TimeUnit.SECONDS));
        while (availability.isUp()) {
            Thread.sleep(10); // the first failure marks it down
        }
        writer.close();
        ExecutionException e = assertThrows(ExecutionException.class, durable::get);
        assertEquals("database unavailable: the controller stopped before it committed", e.getCause().getMessage());
        assertTrue(store.transactions.isEmpty());
    }

    @Test
    void flushed_completesAtOnceWhenNothingIsUncommitted_elseOnceWhatWasQueuedBeforeItCommits() throws Exception {
        RecordingStore store = new RecordingStore();
        List<Integer> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (GroupCommitWriter writer = new GroupCommitWriter(store, batches::add)) {
            assertTrue(writer.flushed().isDone());
            writer.write(aJob(1).build());
            assertTrue(store.firstStarted.await(10, TimeUnit.SECONDS));
            CompletableFuture<Void> flushed = writer.flushed();
            assertFalse(flushed.isDone(), "job 1 is being committed");
            store.releaseFirst.countDown();
            flushed.get(30, TimeUnit.SECONDS);
            synchronized (store) {
                assertEquals(List.of(List.of(1L)), store.transactions.stream().map(t -> t.stream().map(JobRecord::id).toList()).toList(),
                        "a barrier adds no transaction of its own");
            }
        }
        assertEquals(List.of(1), batches, "nor counts as a write");
    }

    @Test
    void stepChangesShareTheTransactionOfTheJobsQueuedWithThem_allOfThem_inTheirOrder() throws Exception {
        RecordingStore store = new RecordingStore();
        try (GroupCommitWriter writer = new GroupCommitWriter(store, n -> {})) {
            CompletableFuture<Void> first = writer.write(aJob(1).build());
            assertTrue(store.firstStarted.await(10, TimeUnit.SECONDS));
            StepRegistry.Step step = new StepRegistry.Step(2, 0, "hostname", List.of("n1"), 1, List.of("hostname"),
                    Instant.parse("2026-11-22T10:00:00Z"));
            List<CompletableFuture<Void>> later = List.of(writer.write(new StepChange.Created(step)),
                    writer.write(aJob(2).build()), writer.write(new StepChange.Ended(2, 0)), writer.write(new StepChange.JobGone(2)));
            store.releaseFirst.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (var f : later) {
                f.get(10, TimeUnit.SECONDS);
            }
        }
        assertEquals(List.of(List.of(), List.of(new StepChange.Created(new StepRegistry.Step(2, 0, "hostname", List.of("n1"), 1,
                List.of("hostname"), Instant.parse("2026-11-22T10:00:00Z"))), new StepChange.Ended(2, 0), new StepChange.JobGone(2))),
                store.stepTransactions);
        assertEquals(List.of(2L), store.transactions.get(1).stream().map(JobRecord::id).toList());
    }
}
