package dev.gantry.cli.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which credential a command sends, in the documented order. */
class CallerCredentialTest {

    @TempDir
    Path tmp;

    private final AtomicInteger connections = new AtomicInteger();

    /** A local authenticator that answers every connection with {@code line}. */
    private Path authenticator(String line) throws Exception {
        Path socket = tmp.resolve("auth.sock");
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread.ofVirtual().start(() -> {
            try (server) {
                while (true) {
                    try (SocketChannel c = server.accept()) {
                        connections.incrementAndGet();
                        c.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII)));
                    }
                }
            } catch (Exception e) {
                // closed
            }
        });
        return socket;
    }

    @Test
    void aJwtInTheEnvironment_comesFirst() throws Exception {
        Path socket = authenticator("local-token");
        var c = new CallerCredential(Map.of("SLURM_JWT", "the.jwt.token", "GANTRY_AUTH_SOCKET", socket.toString()), Optional.empty());
        assertEquals("Bearer the.jwt.token", c.header());
    }

    @Test
    void theLocalAuthenticatorsToken_isSentAsBearer_fromTheSocketBesideTheControllerAddress() throws Exception {
        authenticator("local-token");
        var c = new CallerCredential(Map.of(), Optional.of(tmp));
        assertEquals("Bearer local-token", c.header());
    }

    @Test
    void anAuthenticatorsRefusal_isTheCommandsError() throws Exception {
        Path socket = authenticator("ERROR uid 4242 has no account on node n1");
        var c = new CallerCredential(Map.of("GANTRY_AUTH_SOCKET", socket.toString()), Optional.empty());
        var e = assertThrows(CallerCredential.CredentialUnavailableException.class, c::header);
        assertTrue(e.getMessage().contains("uid 4242 has no account"), e.getMessage());
    }

    @Test
    void withNoAuthenticatorAndNoMunged_noCredentialIsSent_andTheControllerSaysWhatItAccepts() {
        var c = new CallerCredential(Map.of("GANTRY_MUNGE_SOCKET", tmp.resolve("no-munged").toString()), Optional.of(tmp));
        assertNull(c.header());
    }

    @Test
    void aPrefetchedLocalToken_isTakenOnce_andSentOnEveryCall() throws Exception {
        authenticator("local-token");
        var c = new CallerCredential(Map.of(), Optional.of(tmp)).prefetch();

        assertEquals("Bearer local-token", c.header());
        assertEquals("Bearer local-token", c.header());
        assertEquals(1, connections.get());
    }

    @Test
    void aLongLivedClient_takesAFreshLocalToken_beforeItsTokenExpires() throws Exception {
        authenticator("local-token");
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        var c = new CallerCredential(Map.of(), Optional.of(tmp), nanos::get);

        assertEquals("Bearer local-token", c.header());
        nanos.addAndGet(java.time.Duration.ofSeconds(100).toNanos());
        assertEquals("Bearer local-token", c.header());
        assertEquals(1, connections.get(), "a young token is sent again");
        nanos.addAndGet(dev.gantry.common.auth.Tokens.LOCAL_LIFETIME.dividedBy(2).toNanos());
        assertEquals("Bearer local-token", c.header());
        assertEquals(2, connections.get(), "a token past half its lifetime is taken again");
    }

    @Test
    void aJwtFromTheEnvironment_isNeverTakenAgain() throws Exception {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        var c = new CallerCredential(Map.of("SLURM_JWT", "the.jwt.token"), Optional.empty(), nanos::get);
        assertEquals("Bearer the.jwt.token", c.header());
        nanos.addAndGet(java.time.Duration.ofHours(1).toNanos());
        assertEquals("Bearer the.jwt.token", c.header());
    }

    @Test
    void aPrefetchedRefusal_isTheCommandsErrorAtItsCall() throws Exception {
        authenticator("ERROR uid 4242 has no account on node n1");
        var c = new CallerCredential(Map.of(), Optional.of(tmp)).prefetch();

        var e = assertThrows(CallerCredential.CredentialUnavailableException.class, c::header);
        assertTrue(e.getMessage().contains("uid 4242 has no account"), e.getMessage());
    }

    @Test
    void anAuthenticatorThatNeverAnswers_failsTheCommand_namingTheSocket_insteadOfHangingIt() throws Exception {
        Path socket = tmp.resolve("auth.sock");
        try (ServerSocketChannel silent = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            silent.bind(UnixDomainSocketAddress.of(socket)); // accepts (the backlog) but never writes
            var c = new CallerCredential(Map.of(), Optional.of(tmp)).prefetch(java.time.Duration.ofMillis(300));

            var e = assertThrows(CallerCredential.CredentialUnavailableException.class, c::header);
            assertEquals("the local authenticator at " + socket + " did not answer within 300 ms (is the node agent running?)",
                    e.getMessage());
        }
    }

    @Test
    void withAJwtInTheEnvironment_nothingIsPrefetched() throws Exception {
        authenticator("local-token");
        var c = new CallerCredential(Map.of("GANTRY_JWT", "the.jwt.token"), Optional.of(tmp)).prefetch();

        assertEquals("Bearer the.jwt.token", c.header());
        assertEquals(0, connections.get());
    }
}
