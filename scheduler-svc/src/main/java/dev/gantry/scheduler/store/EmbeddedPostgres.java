package dev.gantry.scheduler.store;

import dev.gantry.common.files.LocalUser;
import dev.gantry.common.files.PrivateFiles;
import dev.gantry.common.files.TreeRemoval;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server of one state directory, run by this process (zonky's binaries, our own start-up; see
 * {@link EmbeddedAccess} for who may reach it). Layout below the state directory (0700):
 * <pre>
 *   pgdata/          the cluster (initdb's 0700)        db.password   the superuser's password (0600)
 *   pgsocket/        the socket's directory (0700)      db.lock       held while a scheduler uses the state
 *   postgresql.log   the server's own log (0600)
 * </pre>
 *
 * <p><b>As root</b>, PostgreSQL refuses to run; as zonky does, initdb and postgres run in a user namespace of their
 * own ({@code unshare -U}), where they are an unmapped "nobody" to themselves and keep root's uid outside, with no
 * capability outside the namespace. Chosen over a dedicated unprivileged account because the data then stays in
 * the root-only state directory wherever that is (an account needs every directory above the data searchable by
 * it), and nothing needs creating on the host. Only root can reach the server (socket directory, password file),
 * so it gives nobody more than they have.
 *
 * <p><b>Crash recovery.</b> A scheduler killed with SIGKILL leaves its server running on the data directory: the
 * next start, holding {@code db.lock} (which the dead process released), stops it (the process named in
 * {@code postmaster.pid} whose working directory is this data directory), then starts its own, which recovers
 * from the WAL. A {@code postmaster.pid} naming another process (its pid reused) is removed.
 *
 * <p>{@link #restart} and {@link #close} may be called from any thread (they are serialised); {@link #close} is
 * idempotent and also runs at JVM exit.
 */
final class EmbeddedPostgres implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
    private static final Duration STARTUP_LIMIT = Duration.ofMinutes(5); // crash recovery of a long WAL included
    private static final Duration STOP_LIMIT = Duration.ofSeconds(60);
    /** How long the exit hook leaves the owner to close the database itself ({@link #stopAtExit}). */
    static final Duration OWNER_GRACE = Duration.ofSeconds(10);

    private final Path data;
    private final Path socketDir;
    private final boolean temporarySocketDir;
    private final String password;
    private final Path home;
    private final int maxConnections;
    private final Path log;
    /** The server running now: replaced by {@link #restart}. */
    private volatile Process postmaster;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Thread shutdownHook;
    /** Counted down by {@link #close}: the owner has closed its pool and stopped the server. */
    private final java.util.concurrent.CountDownLatch ownerClosed = new java.util.concurrent.CountDownLatch(1);
    private boolean closed;

    private EmbeddedPostgres(Path data, Path socketDir, boolean temporarySocketDir, String password, Process postmaster,
            FileChannel lockChannel, FileLock lock, Path home, int maxConnections, Path log) {
        this.home = home;
        this.maxConnections = maxConnections;
        this.log = log;
        this.data = data;
        this.socketDir = socketDir;
        this.temporarySocketDir = temporarySocketDir;
        this.password = password;
        this.postmaster = postmaster;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.shutdownHook = new Thread(this::stopAtExit, "embedded-postgres-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts the server of {@code stateDir} (created 0700 if missing; initialised on first use) and returns once it
     * accepts connections.
     *
     * @throws IOException why it could not start, with the server's last log lines where it ran
     */
    static EmbeddedPostgres start(Path stateDir, int maxConnections) throws IOException {
        long started = System.nanoTime();
        Path state = PrivateFiles.ownerOnlyDirectory(stateDir);
        FileChannel lockChannel = FileChannel.open(state.resolve("db.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            Files.setPosixFilePermissions(state.resolve("db.lock"), PrivateFiles.OWNER_ONLY_FILE);
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException | IOException e) {
            lock = null;
        }
        if (lock == null) {
            lockChannel.close();
            throw new IOException("another scheduler-svc uses the state directory " + state + " (it holds db.lock)");
        }
        try {
            Path home = PostgresBinaries.prepare();
            Path oldBinaries = state.resolve("pg-binaries");
            if (Files.exists(oldBinaries, LinkOption.NOFOLLOW_LINKS)) {
                LOG.warn("removing {}: binaries an older version unpacked there, in a directory anyone could write", oldBinaries);
                TreeRemoval.delete(oldBinaries);
            }
            Path data = state.resolve("pgdata");
            Path log = state.resolve("postgresql.log");
            if (!Files.exists(log)) {
                Files.createFile(log, PosixFilePermissions.asFileAttribute(PrivateFiles.OWNER_ONLY_FILE));
            }
            stopOrphan(data);
            Path passwordFile = state.resolve("db.password");
            Optional<String> stored = readPassword(passwordFile);
            String password = stored.orElseGet(EmbeddedAccess::newPassword);
            if (stored.isEmpty()) {
                PrivateFiles.writeSecret(passwordFile, password + "\n");
            }
            if (!Files.exists(data.resolve("PG_VERSION"))) {
                initdb(home, data, passwordFile, log);
            } else if (stored.isEmpty()) {
                setPassword(home, data, password, log); // a data directory from before passwords (trust)
            }
            PrivateFiles.writeSecret(data.resolve("pg_hba.conf"), EmbeddedAccess.HBA);
            Optional<Path> preferred = EmbeddedAccess.socketDirectory(state.resolve("pgsocket"));
            Path socketDir = preferred.isPresent() ? PrivateFiles.ownerOnlyDirectory(preferred.get())
                    : Files.createTempDirectory(Path.of("/tmp"), "gantry-pg-",
                            PosixFilePermissions.asFileAttribute(PrivateFiles.OWNER_ONLY_DIR));
            Process postmaster = startPostmaster(home, data, socketDir, maxConnections, log);
            EmbeddedPostgres server = new EmbeddedPostgres(data, socketDir, preferred.isEmpty(), password, postmaster,
                    lockChannel, lock, home, maxConnections, log);
            try {
                server.awaitReady(log);
            } catch (IOException | RuntimeException e) {
                server.close();
                throw e;
            }
            LOG.info("embedded PostgreSQL (pid {}) ready in {} ms: socket {}, data {}", postmaster.pid(),
                    (System.nanoTime() - started) / 1_000_000, server.socketFile(), data);
            return server;
        } catch (IOException | RuntimeException e) {
            if (lockChannel.isOpen()) { // not yet released by the server's close
                lock.release();
                lockChannel.close();
            }
            throw e;
        }
    }

    /** The socket file the server listens on. */
    Path socketFile() {
        return socketDir.resolve(EmbeddedAccess.SOCKET_FILE);
    }

    String user() {
        return EmbeddedAccess.SUPERUSER;
    }

    String password() {
        return password;
    }

    long pid() {
        return postmaster.pid();
    }

    /** Completes when the server running now exits (killed, crashed or stopped). */
    CompletableFuture<Process> exited() {
        return postmaster.onExit();
    }

    /**
     * Starts the server again after it exited (same data directory, socket, password and lock; PostgreSQL recovers
     * from the WAL), and returns once it accepts connections. Nothing is done while it still runs. A server whose
     * killed predecessor's backends still hold its shared memory refuses to start: the caller retries.
     *
     * @throws IOException why it could not start (the server's last log lines), or that it is closed
     */
    synchronized void restart() throws IOException {
        if (closed) {
            throw new IOException("the embedded PostgreSQL of " + data + " is stopped");
        }
        if (postmaster.isAlive()) {
            return;
        }
        long started = System.nanoTime();
        stopOrphan(data); // a postgres someone started here meanwhile, or a pid file naming a reused pid
        postmaster = startPostmaster(home, data, socketDir, maxConnections, log);
        try {
            awaitReady(log);
        } catch (IOException | RuntimeException e) {
            postmaster.destroyForcibly();
            throw e;
        }
        LOG.info("embedded PostgreSQL restarted (pid {}) in {} ms: socket {}, data {}", postmaster.pid(),
                (System.nanoTime() - started) / 1_000_000, socketFile(), data);
    }

    /** The JVM exit hook (for tests: it must wait for {@link #close}). */
    Thread exitHook() {
        return shutdownHook;
    }

    static Optional<String> readPassword(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        PrivateFiles.restrict(file);
        String line = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (!EmbeddedAccess.wellFormed(line)) {
            throw new IOException(file + ": not a password this scheduler made; remove it to have a new one set");
        }
        return Optional.of(line);
    }

    /** The command that runs a PostgreSQL program: in a user namespace of its own when this process is root. */
    private static List<String> command(Path home, String program) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (LocalUser.isRoot()) {
            cmd.add(unshare());
            cmd.add("-U");
        }
        cmd.add(home.resolve("bin").resolve(program).toString());
        return cmd;
    }

    private static String unshare() throws IOException {
        for (String dir : List.of("/usr/bin", "/bin")) {
            Path p = Path.of(dir, "unshare");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IOException("as root, the embedded PostgreSQL runs in a user namespace, and unshare(1) (util-linux) is missing");
    }

    private static void initdb(Path home, Path data, Path passwordFile, Path log) throws IOException {
        if (Files.exists(data)) {
            TreeRemoval.delete(data); // an initdb that did not finish: nothing of value
        }
        long started = System.nanoTime();
        List<String> cmd = command(home, "initdb");
        cmd.addAll(List.of("-D", data.toString(), "-U", EmbeddedAccess.SUPERUSER, "--pwfile=" + passwordFile,
                "-A", "scram-sha-256", "-E", "UTF-8")); // synced file by file (syncfs would flush the whole file system)
        run(cmd, null, log, "initdb");
        LOG.info("initialised PostgreSQL data in {} ({} ms)", data, (System.nanoTime() - started) / 1_000_000);
    }

    /** Sets the superuser's password in single-user mode: no server listens meanwhile. */
    private static void setPassword(Path home, Path data, String password, Path log) throws IOException {
        LOG.warn("{} has no password yet: setting the one now in db.password", data);
        List<String> cmd = command(home, "postgres");
        cmd.addAll(List.of("--single", "-D", data.toString(), "-c", "listen_addresses=", EmbeddedAccess.SUPERUSER));
        run(cmd, "ALTER ROLE " + EmbeddedAccess.SUPERUSER + " WITH PASSWORD '" + password + "';\n", log, "postgres --single");
    }

    private static void run(List<String> cmd, String input, Path log, String what) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectOutput(input == null ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        if (input == null) {
            pb.redirectInput(new File("/dev/null"));
        }
        Process p = pb.start();
        if (input != null) {
            try (OutputStream in = p.getOutputStream()) {
                in.write(input.getBytes(StandardCharsets.US_ASCII));
            }
        }
        try {
            if (!p.waitFor(STARTUP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(what + " did not finish in " + STARTUP_LIMIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while " + what + " ran", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(what + " failed (exit " + p.exitValue() + "): " + tail(log));
        }
    }

    private static Process startPostmaster(Path home, Path data, Path socketDir, int maxConnections, Path log) throws IOException {
        List<String> cmd = command(home, "postgres");
        cmd.addAll(List.of("-D", data.toString()));
        cmd.addAll(EmbeddedAccess.serverOptions(socketDir, maxConnections));
        // its own process, not pg_ctl's daemon: this process knows its pid and sees it exit; it outlives a killed
        // scheduler all the same (stopOrphan)
        return new ProcessBuilder(cmd)
                .redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /** Waits until postmaster.pid names this server as ready (what pg_ctl -w waits for), or the server exits. */
    private void awaitReady(Path log) throws IOException {
        Path pidFile = data.resolve("postmaster.pid");
        long deadline = System.nanoTime() + STARTUP_LIMIT.toNanos();
        String pid = Long.toString(postmaster.pid());
        while (System.nanoTime() < deadline) {
            if (!postmaster.isAlive()) {
                throw new IOException("PostgreSQL exited (" + postmaster.exitValue() + ") while starting: " + tail(log));
            }
            try {
                List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
                if (lines.size() >= 8 && lines.get(0).strip().equals(pid) && lines.get(7).strip().equals("ready")) {
                    return;
                }
            } catch (java.nio.file.NoSuchFileException notYet) {
                // written a moment after start
            }
            LockSupport.parkNanos(5_000_000);
        }
        throw new IOException("PostgreSQL did not become ready within " + STARTUP_LIMIT + ": " + tail(log));
    }

    /**
     * Stops the server a killed scheduler left on {@code data}: the pid in postmaster.pid, if that process runs a
     * postgres in this data directory (its working directory). A pid file naming any other process is stale and
     * removed, so that a reused pid does not stop the new server from starting.
     */
    private static void stopOrphan(Path data) throws IOException {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
        long pid;
        try {
            pid = Long.parseLong(lines.isEmpty() ? "" : lines.get(0).strip());
        } catch (NumberFormatException e) {
            return; // PostgreSQL judges (and rewrites) a broken pid file itself
        }
        Optional<ProcessHandle> orphan = ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> runsIn(h, data));
        if (orphan.isEmpty()) {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                LOG.warn("{} names pid {}, which is not a PostgreSQL of this data directory: removing the stale file", pidFile, pid);
                Files.deleteIfExists(pidFile);
            }
            return;
        }
        LOG.warn("stopping PostgreSQL {} left running on {}", pid, data);
        stop(orphan.get());
    }

    private static boolean runsIn(ProcessHandle h, Path data) {
        try {
            Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(h.pid()), "cwd"));
            return cwd.equals(data.toRealPath()) && h.info().command().map(c -> c.endsWith("/postgres")).orElse(false);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** SIGTERM (a smart shutdown: no client is left), then SIGKILL after {@link #STOP_LIMIT}. */
    private static void stop(ProcessHandle h) {
        h.destroy();
        try {
            h.onExit().get(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("PostgreSQL {} did not stop within {}: killing it", h.pid(), STOP_LIMIT);
            h.destroyForcibly();
        }
    }

    /**
     * The JVM is exiting (SIGTERM): the owner's {@link #close} comes first, after its last writes are committed and
     * its pool is closed (JVM shutdown hooks run concurrently, so stopping at once would pull the database from under
     * a controller still draining, whose writes then retry until it gives up: a graceful restart took 41 s). The
     * server is stopped here only when the owner has not closed it within {@link #OWNER_GRACE} (a JVM leaving without
     * closing, such as a start-up that failed).
     */
    private void stopAtExit() {
        try {
            if (!ownerClosed.await(OWNER_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the JVM exits and scheduler-svc did not close the database within {}: stopping PostgreSQL", OWNER_GRACE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopServer();
    }

    private synchronized void stopServer() {
        if (closed) {
            return;
        }
        closed = true;
        stop(postmaster.toHandle());
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("releasing db.lock: {}", e.getMessage());
        }
        if (temporarySocketDir) {
            try {
                TreeRemoval.delete(socketDir);
            } catch (IOException e) {
                LOG.warn("removing {}: {}", socketDir, e.getMessage());
            }
        }
    }

    /** Stops the server (its clients must be gone: close the pool first). */
    @Override
    public void close() {
        stopServer();
        ownerClosed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
