package dev.gantry.scheduler.store;

import dev.gantry.common.files.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The embedded PostgreSQL run as a process of its own, for two controllers (an active one and a standby) on one host:
 * it starts the server as a single controller would ({@link EmbeddedPostgres}: the state directory's lock, its
 * password, its private socket) and writes where the socket is into {@code db.socket} (0600), from which each
 * controller attaches ({@link Database#attached}). Neither controller's death stops the database, so the standby
 * keeps it through a failover. Its limit: one host (a Unix socket); across hosts use an external PostgreSQL.
 */
public final class SharedEmbeddedServer implements AutoCloseable {

    static final String SOCKET_NOTE = "db.socket";

    private final EmbeddedPostgres server;
    private final Path note;

    private SharedEmbeddedServer(EmbeddedPostgres server, Path note) {
        this.server = server;
        this.note = note;
    }

    /** Starts the server in {@code stateDir} for controllers to attach to. */
    public static SharedEmbeddedServer start(Path stateDir, int maxConnections) throws IOException {
        EmbeddedPostgres pg = EmbeddedPostgres.start(stateDir, maxConnections);
        Path note = stateDir.resolve(SOCKET_NOTE);
        try {
            PrivateFiles.writeSecret(note, pg.socketFile() + "\n");
        } catch (IOException | RuntimeException e) {
            pg.close();
            throw e;
        }
        return new SharedEmbeddedServer(pg, note);
    }

    /** The postmaster's pid. */
    public long pid() {
        return server.pid();
    }

    /** Whether the postmaster still runs. */
    public boolean alive() {
        return ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(note);
        } catch (IOException e) {
            // the next start rewrites it
        }
        server.close();
    }

    /** The socket file a shared server in {@code stateDir} listens on, as its note says. */
    static Path socketOf(Path stateDir) throws IOException {
        Path note = stateDir.resolve(SOCKET_NOTE);
        return Path.of(Files.readString(note, StandardCharsets.UTF_8).strip());
    }
}
