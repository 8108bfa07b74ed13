package dev.gantry.scheduler.store;

import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Durable jobs, and the steps of running jobs. Implementations are thread-safe; {@link #write} is atomic for the
 * whole batch.
 */
public interface JobStore {

    /**
     * Inserts or replaces every job and applies the step changes in their order, all in one transaction; returns once
     * committed.
     */
    void write(List<JobRecord> jobs, List<StepChange> steps) throws StoreException;

    /** Inserts or replaces every job in one transaction; returns once committed. */
    default void write(List<JobRecord> jobs) throws StoreException {
        write(jobs, List.of());
    }

    /** The stored steps, and each job's next step id, as the step changes written so far left them. */
    StoredSteps loadSteps() throws StoreException;

    /** Steps as stored: the steps not yet ended, and per job the id its next step gets. */
    record StoredSteps(List<StepRegistry.Step> steps, Map<Long, Integer> nextStepIds) {
        public static final StoredSteps NONE = new StoredSteps(List.of(), Map.of());

        public StoredSteps {
            steps = List.copyOf(steps);
            nextStepIds = Map.copyOf(nextStepIds);
        }
    }

    /** Jobs not finished, plus those that finished at or after {@code finishedSince}. */
    List<JobRecord> loadCurrent(Instant finishedSince) throws StoreException;

    Optional<JobRecord> find(long jobId) throws StoreException;

    /** The highest job id ever stored, 0 if none. */
    long maxJobId() throws StoreException;
}
