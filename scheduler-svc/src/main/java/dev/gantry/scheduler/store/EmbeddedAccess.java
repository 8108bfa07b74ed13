package dev.gantry.scheduler.store;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Who may reach the embedded PostgreSQL, and how: pure values and rules (docs/security.md, "Local state").
 * <ul>
 *   <li>No TCP at all ({@code listen_addresses} empty): only a Unix socket, in a directory only the server's user
 *       (this process's) may enter, the socket itself 0700.</li>
 *   <li>{@code pg_hba.conf} admits Unix-socket connections with a SCRAM-SHA-256 password and nothing else: being
 *       root or the server's user is not enough, the password is needed too.</li>
 *   <li>The password is random (32 bytes from {@link SecureRandom}, base64url: 43 characters that need no quoting
 *       in SQL or in initdb's password file), made once and kept 0600 in the state directory.</li>
 * </ul>
 */
final class EmbeddedAccess {

    /** The superuser initdb creates; the scheduler connects as it. */
    static final String SUPERUSER = "postgres";
    /** Names the socket file only ({@code .s.PGSQL.5432}); each server has a socket directory of its own. */
    static final int PORT = 5432;
    static final String SOCKET_FILE = ".s.PGSQL." + PORT;
    /** sockaddr_un's sun_path holds 108 bytes with the terminating NUL. */
    static final int MAX_SOCKET_PATH = 107;

    static final String HBA = """
            # Written by Gantry's scheduler-svc at every start of its embedded PostgreSQL (docs/security.md, "Local state").
            # Only the Unix socket (no TCP: listen_addresses is empty), and only with the password (SCRAM-SHA-256).
            # TYPE  DATABASE  USER  METHOD
            local   all       all   scram-sha-256
            """;

    private static final SecureRandom RANDOM = new SecureRandom();

    private EmbeddedAccess() {}

    /** A new password: 32 random bytes, base64url without padding. */
    static String newPassword() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code password} is one {@link #newPassword} could have made (safe inside a SQL string literal). */
    static boolean wellFormed(String password) {
        return password.length() >= 32 && password.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_');
    }

    /** The server's settings, as postgres(1) options; fsync and synchronous_commit on so acknowledged work survives. */
    static List<String> serverOptions(Path socketDir, int maxConnections) {
        return List.of(
                "-c", "listen_addresses=",
                "-c", "port=" + PORT,
                "-c", "unix_socket_directories=" + socketDir,
                "-c", "unix_socket_permissions=0700",
                "-c", "password_encryption=scram-sha-256",
                "-c", "fsync=on",
                "-c", "synchronous_commit=on",
                "-c", "max_connections=" + maxConnections,
                "-c", "timezone=UTC");
    }

    /**
     * The socket directory: {@code preferred} (in the state directory) when the socket's path fits sun_path and
     * needs no quoting in {@code unix_socket_directories}, else empty (the caller makes a private temporary one).
     */
    static Optional<Path> socketDirectory(Path preferred) {
        String dir = preferred.toAbsolutePath().normalize().toString();
        boolean plain = dir.chars().noneMatch(c -> c == ',' || c == '"' || c == '\'' || c == '\\' || Character.isWhitespace(c));
        int bytes = (dir + "/" + SOCKET_FILE).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return plain && bytes <= MAX_SOCKET_PATH ? Optional.of(Path.of(dir)) : Optional.empty();
    }
}
