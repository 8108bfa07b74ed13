package dev.gantry.agent.auth;

import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.credential.Ed25519;
import dev.gantry.common.posix.PosixAccounts;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gantry's built-in way for local users to prove who they are (AuthType=auth/local), the role munged plays for Slurm:
 * a process connects to this Unix socket, the kernel tells the agent the connecting process's user (SO_PEERCRED, which
 * the caller cannot choose), and the agent answers one line: a short-lived token (EdDSA, {@link Tokens#LOCAL_KEY_ID})
 * naming that user, its uid, primary gid and groups, signed with the cluster's authentication key, which only the
 * agents (root) hold. The controller and the agents verify it with the public key. Anyone may connect (the socket is
 * 0666); what they get names only themselves.
 *
 * <p>Protocol: connect, read one line (the token, or {@code ERROR <reason>}), close. Each connection is answered on a
 * virtual thread; the socket file is replaced at start and removed at close. Thread-safe.
 */
public final class LocalAuthenticator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalAuthenticator.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path socket;
    private final String node;
    private final Ed25519.SigningKey key;
    private final InstantSource clock;
    private final ServerSocketChannel server;
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean closed;

    private LocalAuthenticator(Path socket, String node, Ed25519.SigningKey key, InstantSource clock, ServerSocketChannel server) {
        this.socket = socket;
        this.node = node;
        this.key = key;
        this.clock = clock;
        this.server = server;
    }

    /** Listens on {@code socket} (created, mode 0666; a stale file there is replaced) and answers until closed. */
    public static LocalAuthenticator start(Path socket, String node, Ed25519.SigningKey key, InstantSource clock) throws IOException {
        Files.createDirectories(socket.toAbsolutePath().getParent());
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        LocalAuthenticator authenticator = new LocalAuthenticator(socket, node, key, clock, server);
        Thread.ofPlatform().name("local-authenticator").daemon(true).start(authenticator::acceptLoop);
        LOG.info("local authenticator on {}", socket);
        return authenticator;
    }

    /** Tokens issued and requests refused since start (for metrics). */
    public long issued() {
        return issued.get();
    }

    public long refused() {
        return refused.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                SocketChannel client = server.accept();
                Thread.ofVirtual().start(() -> answer(client));
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("local authenticator: accept failed: {}", e.toString());
                }
            }
        }
    }

    private void answer(SocketChannel client) {
        try (client) {
            String line;
            try {
                line = token(client.getOption(ExtendedSocketOptions.SO_PEERCRED)) + "\n";
                issued.incrementAndGet();
            } catch (IllegalStateException e) {
                refused.incrementAndGet();
                line = "ERROR " + e.getMessage() + "\n";
            }
            ByteBuffer out = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
            while (out.hasRemaining()) {
                client.write(out);
            }
        } catch (IOException e) {
            LOG.debug("local authenticator: a client went away: {}", e.toString());
        }
    }

    /** The token for the peer the kernel names. */
    private String token(UnixDomainPrincipal peer) {
        String name = peer.user().getName();
        Optional<PosixAccounts.Account> account = PosixAccounts.byName(name);
        if (account.isEmpty()) {
            // a uid without a passwd entry comes as its number: such a user has no name to act as
            throw new IllegalStateException("uid " + name + " has no account on node " + node);
        }
        PosixAccounts.Account a = account.get();
        Identity who = new Identity(a.name(), a.uid(), a.gid(), a.groups(), "local");
        byte[] nonce = new byte[12];
        RANDOM.nextBytes(nonce);
        return Jwt.signEd25519(Tokens.localClaims(who, node, clock.instant(), HexFormat.of().formatHex(nonce)),
                Tokens.LOCAL_KEY_ID, key);
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            LOG.debug("closing the local authenticator: {}", e.toString());
        }
    }
}
