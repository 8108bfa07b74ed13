package dev.gantry.scheduler.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The scheduler's PostgreSQL: an external server given by a JDBC URL, or (the default) an embedded one whose data
 * lives under the state directory and which only this process's user, with the password, can reach, through a
 * Unix socket ({@link EmbeddedPostgres}). Schema migrations run on open. Close it to stop the embedded server.
 */
public final class Database implements AutoCloseable {

    /** The longest a caller waits for a connection from the pool. */
    static final java.time.Duration CONNECTION_TIMEOUT = java.time.Duration.ofSeconds(3);

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
        EmbeddedPostgres pg;
        try {
            pg = EmbeddedPostgres.start(stateDir, 40);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + stateDir + ": " + e.getMessage(), e);
        }
        try {
            return open(pg, socketConfig(pg.socketFile(), pg.password()), poolSize);
        } catch (RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    /**
     * Connects to the embedded PostgreSQL that a {@link SharedEmbeddedServer} runs in {@code stateDir} (two controllers on
     * one host), waiting up to {@code wait} for it to be started; migrates it. Closing this one leaves the server running.
     */
    public static Database attached(Path stateDir, int poolSize, java.time.Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                Path socket = SharedEmbeddedServer.socketOf(stateDir);
                String password = EmbeddedPostgres.readPassword(stateDir.resolve("db.password"))
                        .orElseThrow(() -> new IOException("no db.password"));
                if (java.nio.file.Files.exists(socket)) {
                    return open(null, socketConfig(socket, password), poolSize);
                }
            } catch (IOException e) {
                // not started yet
            }
            if (System.nanoTime() > deadline) {
                throw new UncheckedIOException(new IOException("no shared embedded PostgreSQL in " + stateDir + " after "
                        + wait.toSeconds() + " s (" + SharedEmbeddedServer.SOCKET_NOTE + " names none that runs)"));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the shared database", e);
            }
        }
    }

    private static HikariConfig socketConfig(Path socketFile, String password) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl("jdbc:postgresql://localhost/postgres"); // the host names nothing: the socket factory decides
        hc.addDataSourceProperty("socketFactory", UnixSocketFactory.class.getName());
        hc.addDataSourceProperty("socketFactoryArg", socketFile.toString());
        hc.addDataSourceProperty("sslmode", "disable");
        hc.addDataSourceProperty("gssEncMode", "disable");
        hc.setUsername(EmbeddedAccess.SUPERUSER);
        hc.setPassword(password);
        return hc;
    }

    private static Database open(EmbeddedPostgres pg, HikariConfig hc, int poolSize) {
        hc.setMaximumPoolSize(poolSize);
        // a lost database is noticed in seconds, not Hikari's 30 s: a caller waits at most this for a connection
        hc.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        hc.setValidationTimeout(1000);
        hc.addDataSourceProperty("connectTimeout", "3"); // seconds, pgjdbc's: a server that does not answer at all
        hc.setPoolName("gantry-db");
        HikariDataSource pool = new HikariDataSource(hc);
        try {
            Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pg, pool);
    }

    public DataSource dataSource() {
        return pool;
    }

    /**
     * Whether the database answers now: a connection from the pool that the server says is valid within
     * {@code timeoutSeconds}. Cheap (no statement when the connection is fresh).
     *
     * @throws StoreException why not
     */
    public void probe(int timeoutSeconds) throws StoreException {
        try (java.sql.Connection c = pool.getConnection()) {
            if (!c.isValid(timeoutSeconds)) {
                throw new StoreException("the database did not answer within " + timeoutSeconds + " s", null);
            }
        } catch (java.sql.SQLException e) {
            throw new StoreException(e.getMessage(), e);
        }
    }

    /** Whether this is the embedded server, which {@link #restartServer} can start again. */
    public boolean embedded() {
        return embedded != null;
    }

    /** Completes when the embedded server running now exits; never for an external database. */
    public java.util.concurrent.CompletableFuture<?> serverExited() {
        return embedded == null ? new java.util.concurrent.CompletableFuture<>() : embedded.exited();
    }

    /**
     * Starts the embedded server again once it has exited (nothing while it runs; see EmbeddedPostgres#restart); the
     * pool makes new connections to it.
     *
     * @throws IOException why it could not start; try again later
     */
    public void restartServer() throws IOException {
        if (embedded != null) {
            embedded.restart();
        }
    }

    /** The embedded server's JVM exit hook (tests). */
    Thread embeddedExitHook() {
        return embedded.exitHook();
    }

    /** The embedded server's postmaster pid, or -1 for an external database. */
    public long embeddedServerPid() {
        return embedded == null ? -1 : embedded.pid();
    }

    @Override
    public void close() {
        pool.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
