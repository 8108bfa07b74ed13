package dev.gantry.agent.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.TestUsers;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.TokenException;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.Ed25519;
import dev.gantry.common.posix.PosixAccounts;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local authenticator names whoever connects, as the kernel reports it, and nobody else. */
class LocalAuthenticatorTest {

    @TempDir
    Path tmp;

    final KeyPair key = CredentialKeys.generate();
    final Jwt.Keys verifier = new Jwt.Keys(Optional.empty(), Map.of(Tokens.LOCAL_KEY_ID, Ed25519.VerifyingKey.of(key.getPublic())));
    LocalAuthenticator authenticator;
    Path socket;

    @BeforeEach
    void start() throws IOException {
        // world-traversable, so another user can reach the socket, as in /run/gantry
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        socket = tmp.resolve("auth.sock");
        authenticator = LocalAuthenticator.start(socket, "n1", Ed25519.SigningKey.of(key.getPrivate()), InstantSource.system());
    }

    @AfterEach
    void stop() {
        authenticator.close();
    }

    @Test
    void theCallerGetsATokenNamingItself_thatTheAuthenticatorsPublicKeyVerifies() throws Exception {
        Identity who = identity(read());

        PosixAccounts.Account me = PosixAccounts.byName(System.getProperty("user.name")).orElseThrow();
        assertEquals(me.name(), who.user());
        assertEquals(me.uid(), who.uid());
        assertEquals(me.gid(), who.gid());
        assertEquals("local", who.method());
        assertEquals(1, authenticator.issued());
    }

    @Test
    void anotherUserGetsATokenNamingThatUser_notRoot() throws Exception {
        PosixAccounts.Account user = TestUsers.ensure("gantry-t1");
        String client = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
                + "sys.stdout.write(s.makefile().readline())";

        TestUsers.Result r = TestUsers.runAs(user, List.of("/usr/bin/python3", "-c", client, socket.toString()));

        assertEquals(0, r.exit(), r.output());
        Identity who = identity(r.output().trim());
        assertEquals(new Identity("gantry-t1", user.uid(), user.gid(), user.groups(), "local"), who);
    }

    @Test
    void theSocketIsOpenToEveryone_andATamperedTokenDoesNotVerify() throws Exception {
        assertEquals("rw-rw-rw-", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        String token = read();
        String[] parts = token.split("\\.");
        String claims = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replaceAll("\"uid\":\\d+", "\"uid\":12345");
        String tampered = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];

        assertThrows(TokenException.class, () -> Jwt.verify(tampered, verifier, Instant.now()));
    }

    @Test
    void closing_removesTheSocket() {
        authenticator.close();
        assertTrue(Files.notExists(socket));
    }

    private Identity identity(String token) throws TokenException {
        return Tokens.identity(Jwt.verify(token, verifier, Instant.now()), u -> Optional.empty());
    }

    private String read() throws IOException {
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer buf = ByteBuffer.allocate(8192);
            while (c.read(buf) >= 0) {
                if (!buf.hasRemaining()) {
                    break;
                }
            }
            return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        }
    }
}
