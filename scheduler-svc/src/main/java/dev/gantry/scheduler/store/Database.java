package dev.gantry.scheduler.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's PostgreSQL: an external server given by a JDBC URL, or (the default) an embedded one
 * whose data lives under the state directory. Schema migrations run on open. Close it to stop the
 * embedded server.
 */
public final class Database implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final EmbeddedPostgres embedded;
    private final HikariDataSource pool;

    private Database(EmbeddedPostgres embedded, HikariDataSource pool) {
        this.embedded = embedded;
        this.pool = pool;
    }

    /** Connects to an external PostgreSQL and migrates it. */
    public static Database external(String jdbcUrl, String user, String password, int poolSize) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(jdbcUrl);
        hc.setUsername(user);
        hc.setPassword(password);
        return open(null, hc, poolSize);
    }

    /**
     * Starts (initialising on first use) an embedded PostgreSQL with its data in {@code stateDir/pgdata}, and
     * migrates it. A server left running by a scheduler that died is stopped first.
     */
    public static Database embedded(Path stateDir, int poolSize) {
        Path data = stateDir.resolve("pgdata");
        Path work = stateDir.resolve("pg-binaries");
        try {
            Files.createDirectories(work);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + data + ": " + e.getMessage(), e);
        }
        // The server's port is picked free, then bound by PostgreSQL a moment later; a process starting meanwhile
        // (the local cluster starts its services on ports it picked the same way) can take it first, and the server
        // then exits. A new attempt picks another port.
        for (int attempt = 1; ; attempt++) {
            try {
                return startEmbedded(data, work, poolSize);
            } catch (IOException | RuntimeException e) {
                if (attempt == 3) {
                    throw new UncheckedIOException("cannot start embedded PostgreSQL in " + data + ": " + e.getMessage(),
                            e instanceof IOException io ? io : new IOException(e));
                }
                LOG.warn("embedded PostgreSQL did not start (attempt {} of 3: {}); trying again on another port",
                        attempt, e.toString());
            }
        }
    }

    private static Database startEmbedded(Path data, Path work, int poolSize) throws IOException {
        stopOrphan(data);
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setOverrideWorkingDirectory(work.toFile())
                .setPGStartupWait(Duration.ofSeconds(20))
                .setServerConfig("max_connections", "40")
                // zonky starts PostgreSQL with -F (fsync=off) and synchronous_commit=off, made for throw-away
                // test databases: a commit would return before its WAL is on disk, and a crash could lose
                // acknowledged submissions (the submission benchmark lost some). A later -c wins over -F.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("listen_addresses", "127.0.0.1")
                .start();
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
        LOG.info("embedded PostgreSQL on port {} with data in {}", pg.getPort(), data);
        return open(pg, hc, poolSize);
    }

    private static Database open(EmbeddedPostgres pg, HikariConfig hc, int poolSize) {
        hc.setMaximumPoolSize(poolSize);
        hc.setPoolName("gantry-db");
        HikariDataSource pool = new HikariDataSource(hc);
        Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate();
        return new Database(pg, pool);
    }

    /** A PostgreSQL still running on this data directory (its scheduler was killed) holds the lock: stop it. */
    private static void stopOrphan(Path data) throws IOException {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
        if (lines.isEmpty()) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return;
        }
        var handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(h -> h.info().command().map(c -> c.contains("postgres")).orElse(false));
        if (handle.isEmpty()) {
            return;
        }
        LOG.warn("stopping PostgreSQL {} left running on {}", pid, data);
        handle.get().destroy(); // SIGTERM: PostgreSQL's smart shutdown; no client is left connected
        try {
            handle.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            handle.get().destroyForcibly();
        }
    }

    public DataSource dataSource() {
        return pool;
    }

    @Override
    public void close() {
        pool.close();
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                LOG.warn("stopping embedded PostgreSQL: {}", e.getMessage());
            }
        }
    }
}
