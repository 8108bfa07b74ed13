package dev.gantry.scheduler.runtime;

import dev.gantry.scheduler.store.Database;
import dev.gantry.scheduler.store.DatabaseAvailability;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.StoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a lost database within seconds and brings it back (issue 17, "Database loss handled"). Three signs mark it
 * down ({@link DatabaseAvailability}): a failed commit (the group-commit writer's own), the embedded server's
 * postmaster exiting (it is this process's child, so its exit is seen at once), and, while the writer is idle, a probe
 * (a pooled connection's validity check, every {@link #PROBE_EVERY}) failing twice in a row, or a commit under way for
 * longer than {@link #HUNG_COMMIT}. It is marked up again by the next commit, or, with nothing to commit, by a probe
 * that answers.
 *
 * <p>While it is down the watch restarts the embedded server (same data, socket and password; WAL recovery), with
 * pauses growing from 0.5 s to 5 s; the pool makes new connections by itself (an external server too). What the
 * controller does meanwhile (health NOT_SERVING, UNAVAILABLE answers, no job started) its listeners decide.
 *
 * <p>Metrics: gantry_database_up, gantry_database_outages_total, gantry_database_outage_seconds_total,
 * gantry_database_restarts_total. Log: a WARN naming the cause when an outage starts, an INFO with its length when it
 * ends. Thread-safe; one thread of its own ("database-watch").
 */
public final class DatabaseWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseWatch.class);
    static final Duration PROBE_EVERY = Duration.ofSeconds(1);
    static final Duration HUNG_COMMIT = Duration.ofSeconds(10);
    private static final long FIRST_RESTART_PAUSE_MS = 500;
    private static final long MAX_RESTART_PAUSE_MS = 5000;

    private final Database database;
    private final DatabaseAvailability availability;
    private final GroupCommitWriter writer;
    private final Counter outages;
    private final Counter restarts;
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;
    /** System.nanoTime() when the outage under way began; 0 when the database is up. */
    private volatile long outageSince;
    private volatile double pastOutageSeconds;
    private volatile boolean serverGone;

    public DatabaseWatch(Database database, DatabaseAvailability availability, GroupCommitWriter writer,
            MeterRegistry registry) {
        this.database = database;
        this.availability = availability;
        this.writer = writer;
        Gauge.builder("gantry_database_up", availability, a -> a.isUp() ? 1 : 0)
                .description("1 while the database commits (health SERVING), 0 during an outage").register(registry);
        this.outages = Counter.builder("gantry_database_outages_total")
                .description("Database outages noticed (failed commit, embedded server exited, failed probes)").register(registry);
        FunctionCounter.builder("gantry_database_outage_seconds_total", this, DatabaseWatch::outageSeconds)
                .description("Seconds the database was unavailable, the outage under way included").register(registry);
        this.restarts = Counter.builder("gantry_database_restarts_total")
                .description("Restarts of the embedded PostgreSQL after it exited").register(registry);
        availability.onChange(this::changed);
        watchServer();
        this.thread = Thread.ofPlatform().name("database-watch").daemon(true).start(this::loop);
    }

    /** Seconds of outage so far, the one under way included. */
    double outageSeconds() {
        long since = outageSince;
        return pastOutageSeconds + (since == 0 ? 0 : (System.nanoTime() - since) / 1e9);
    }

    private void changed(Optional<String> cause) {
        if (cause.isPresent()) {
            outageSince = System.nanoTime();
            outages.increment();
            LOG.warn("database unavailable: {}; answering UNAVAILABLE to calls that change state, starting no job, "
                    + "until it commits again", cause.get());
        } else {
            long since = outageSince;
            outageSince = 0;
            double seconds = since == 0 ? 0 : (System.nanoTime() - since) / 1e9;
            pastOutageSeconds += seconds;
            LOG.info("database available again after {} s", String.format("%.1f", seconds));
        }
        wake.release();
    }

    /** Marks the database down as soon as the embedded server running now exits. */
    private void watchServer() {
        if (!database.embedded()) {
            return;
        }
        long pid = database.embeddedServerPid();
        database.serverExited().thenRun(() -> {
            if (running) {
                serverGone = true;
                availability.down("the embedded PostgreSQL (pid " + pid + ") exited");
                wake.release();
            }
        });
    }

    private void loop() {
        int probeFailures = 0;
        long restartPause = FIRST_RESTART_PAUSE_MS;
        while (running) {
            try {
                long pause = serverGone ? restartPause : PROBE_EVERY.toMillis();
                wake.tryAcquire(pause, TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (!running) {
                    return;
                }
                if (serverGone) {
                    if (restartServer()) {
                        restartPause = FIRST_RESTART_PAUSE_MS;
                    } else {
                        restartPause = Math.min(restartPause * 2, MAX_RESTART_PAUSE_MS);
                        continue;
                    }
                }
                long committing = writer.commitNanos();
                if (committing > HUNG_COMMIT.toNanos()) {
                    availability.down("a commit has not returned for " + committing / 1_000_000_000 + " s");
                    continue;
                }
                if (committing > 0 || writer.uncommitted() > 0 && availability.isUp()) {
                    probeFailures = 0; // the writer is at work: its commits tell
                    continue;
                }
                try {
                    database.probe(2);
                    probeFailures = 0;
                    if (!availability.isUp()) {
                        if (writer.uncommitted() == 0) {
                            availability.up(); // nothing to commit, and the database answers
                        } else {
                            writer.retryNow(); // its commit will tell
                        }
                    }
                } catch (StoreException e) {
                    if (++probeFailures >= 2) {
                        availability.down("probe failed: " + e.getMessage());
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("database watch failed", e);
            }
        }
    }

    /** One attempt to start the embedded server again; true once it runs. */
    private boolean restartServer() {
        try {
            database.restartServer();
            serverGone = false;
            restarts.increment();
            watchServer();
            writer.retryNow();
            return true;
        } catch (IOException e) {
            LOG.warn("cannot restart the embedded PostgreSQL yet: {}", e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
