package dev.gantry.scheduler.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.files.TrustedPath;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded server as a local attacker meets it: no port, a private socket, a password; and its restarts. */
class EmbeddedPostgresTest {

    @TempDir
    Path stateDir;

    @Test
    void theStateIsPrivate_andThePasswordIsKeptOnce() throws Exception {
        String first;
        try (Database db = Database.embedded(stateDir, 2)) {
            assertEquals("rwx------", mode(stateDir));
            assertEquals("rw-------", mode(stateDir.resolve("db.password")));
            assertEquals("rwx------", mode(stateDir.resolve("pgsocket")));
            assertEquals("rwx------", mode(stateDir.resolve("pgdata")));
            assertEquals("rw-------", mode(stateDir.resolve("pgdata/pg_hba.conf")));
            assertEquals(EmbeddedAccess.HBA, Files.readString(stateDir.resolve("pgdata/pg_hba.conf")));
            first = Files.readString(stateDir.resolve("db.password"));
        }
        try (Database db = Database.embedded(stateDir, 2)) {
            assertEquals(first, Files.readString(stateDir.resolve("db.password")), "generated once");
        }
    }

    @Test
    void theServerListensOnNoTcpPort() throws Exception {
        try (Database db = Database.embedded(stateDir, 2);
                Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            assertEquals("", show(s, "listen_addresses"));
            Set<String> sockets = socketInodes(db.embeddedServerPid());
            assertFalse(sockets.isEmpty(), "the postmaster holds its Unix socket");
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                try (Stream<String> lines = Files.lines(Path.of(table))) {
                    List<String> listening = lines.skip(1).map(l -> l.trim().split("\\s+"))
                            .filter(f -> f[3].equals("0A") && sockets.contains(f[9])).map(f -> f[1]).toList();
                    assertEquals(List.of(), listening, "TCP listeners of the postmaster in " + table);
                }
            }
        }
    }

    @Test
    void withoutThePassword_evenThisUserIsRefused() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            Path socket = stateDir.resolve("pgsocket").resolve(EmbeddedAccess.SOCKET_FILE);
            SQLException none = assertThrows(SQLException.class, () -> connect(socket, ""));
            assertEquals("08004", none.getSQLState(), none.getMessage()); // the server asked for a password
            SQLException wrong = assertThrows(SQLException.class, () -> connect(socket, EmbeddedAccess.newPassword()));
            assertEquals("28P01", wrong.getSQLState(), wrong.getMessage()); // invalid_password
            try (Connection c = connect(socket, Files.readString(stateDir.resolve("db.password")).strip());
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = 'postgres'")) {
                rs.next();
                assertTrue(rs.getBoolean(1), "stored as a SCRAM verifier");
            }
        }
    }

    @Test
    void aDataDirectoryFromBeforePasswords_getsOne() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            // as an older version left it: no password file (its server trusted every local connection)
        }
        Files.delete(stateDir.resolve("db.password"));

        try (Database db = Database.embedded(stateDir, 2);
                Connection c = db.dataSource().getConnection()) {
            assertTrue(c.isValid(5));
        }
        assertTrue(EmbeddedAccess.wellFormed(Files.readString(stateDir.resolve("db.password")).strip()));
    }

    @Test
    void theBinariesComeFromAPlaceOnlyRootOrThisUserCanWrite() throws Exception {
        Path home = PostgresBinaries.prepare();

        assertEquals(Optional.empty(), TrustedPath.check(home.resolve("bin/postgres")));
        assertEquals(Optional.empty(), TrustedPath.check(home.resolve("lib")));
        assertFalse(Files.exists(stateDir.resolve("pg-binaries")));
    }

    @Test
    void aSecondSchedulerOnTheSameState_isRefused_notAllowedToStopTheFirstsServer() throws Exception {
        try (Database db = Database.embedded(stateDir, 2)) {
            long pid = db.embeddedServerPid();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> {
                try {
                    Database.embedded(stateDir, 2).close();
                } catch (java.io.UncheckedIOException e) {
                    throw new IllegalStateException(e.getMessage());
                }
            });
            assertTrue(refused.getMessage().contains("another scheduler-svc uses the state directory"), refused.getMessage());
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        }
    }

    /** A scheduler killed with SIGKILL leaves its PostgreSQL running; the next start stops it and recovers. */
    @Test
    void aServerLeftByAKilledScheduler_isStopped_andTheDataRecovered() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process scheduler = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                HoldDatabase.class.getName(), stateDir.toString()).redirectErrorStream(true).start();
        long orphanPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(scheduler.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("PID ")) {
                // its log
            }
            assertTrue(line != null, "the holder printed its server's pid");
            orphanPid = Long.parseLong(line.substring(4).trim());
            scheduler.destroyForcibly(); // SIGKILL: no shutdown hook runs
            scheduler.waitFor();
        }
        assertTrue(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false), "the server outlived its scheduler");

        try (Database db = Database.embedded(stateDir, 2);
                Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM committed_before_the_kill")) {
            assertNotEquals(orphanPid, db.embeddedServerPid());
            assertFalse(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false), "the orphan was stopped");
            rs.next();
            assertEquals(7, rs.getInt(1));
        }
    }

    /**
     * At SIGTERM every JVM exit hook runs at once: the server's own must leave it to the scheduler to commit its last
     * writes and close the pool first (it stopped the server at once, and a graceful restart took 41 s of retries).
     */
    @Test
    void theExitHook_waitsForTheOwnersClose_beforeStoppingTheServer() throws Exception {
        Database db = Database.embedded(stateDir, 2);
        long server = db.embeddedServerPid();
        Thread hook = db.embeddedExitHook();
        hook.start(); // as the JVM would at exit
        try {
            java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
            while (hook.getState() != Thread.State.TIMED_WAITING && hook.isAlive() && java.time.Instant.now().isBefore(deadline)) {
                Thread.sleep(10);
            }
            assertEquals(Thread.State.TIMED_WAITING, hook.getState(), "the hook waits for the owner");
            // not even a smart shutdown began: a new connection is still taken, and the owner's last writes commit
            Path socket = stateDir.resolve("pgsocket").resolve(EmbeddedAccess.SOCKET_FILE);
            try (Connection c = connect(socket, Files.readString(stateDir.resolve("db.password")).strip());
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE written_while_stopping (v int)");
            }
            assertTrue(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false));
        } finally {
            db.close();
        }
        hook.join();
        assertFalse(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false), "closed: the server stopped");
    }

    /** Run in a child JVM by the test above: opens the database, commits a row, prints its server's pid, waits. */
    static final class HoldDatabase {
        public static void main(String[] args) throws Exception {
            Database db = Database.embedded(Path.of(args[0]), 2);
            try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE committed_before_the_kill (v int)");
                s.execute("INSERT INTO committed_before_the_kill VALUES (7)");
            }
            System.out.println("PID " + db.embeddedServerPid());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private static Connection connect(Path socket, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", password);
        p.setProperty("socketFactory", UnixSocketFactory.class.getName());
        p.setProperty("socketFactoryArg", socket.toString());
        p.setProperty("sslmode", "disable");
        return DriverManager.getConnection("jdbc:postgresql://localhost/postgres", p);
    }

    /** The inodes of the sockets process {@code pid} holds open ("socket:[123]" in /proc/pid/fd). */
    private static Set<String> socketInodes(long pid) throws Exception {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (java.io.IOException gone) {
                    // closed meanwhile
                }
            }
        }
        return inodes;
    }

    private static String show(Statement s, String setting) throws Exception {
        try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

}
