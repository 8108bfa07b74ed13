package dev.gantry.scheduler.store;

import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Durable jobs. Implementations are thread-safe; {@link #write} is atomic for the whole list. */
public interface JobStore {

    /** Inserts or replaces every job in one transaction; returns once committed. */
    void write(List<JobRecord> jobs) throws StoreException;

    /** Jobs not finished, plus those that finished at or after {@code finishedSince}. */
    List<JobRecord> loadCurrent(Instant finishedSince) throws StoreException;

    Optional<JobRecord> find(long jobId) throws StoreException;

    /** The highest job id ever stored, 0 if none. */
    long maxJobId() throws StoreException;
}
