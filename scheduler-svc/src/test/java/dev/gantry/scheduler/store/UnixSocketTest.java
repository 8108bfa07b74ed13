package dev.gantry.scheduler.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnixSocketTest {

    @TempDir
    Path dir;

    private ServerSocketChannel server;
    private Path socketFile;

    @BeforeEach
    void listen() throws Exception {
        socketFile = dir.resolve(".s.PGSQL.5432");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socketFile));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void bytesGoBothWays_whateverAddressPgjdbcGives() throws Exception {
        CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
            try (SocketChannel peer = server.accept()) {
                ByteBuffer buf = ByteBuffer.allocate(5);
                while (buf.hasRemaining()) {
                    peer.read(buf);
                }
                peer.write(buf.flip());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (Socket s = new UnixSocketFactory(socketFile.toString()).createSocket()) {
            s.connect(new java.net.InetSocketAddress("localhost", 5432), 1000);
            s.setTcpNoDelay(true);
            s.setSoTimeout(0);
            s.getOutputStream().write("hello".getBytes());
            byte[] back = s.getInputStream().readNBytes(5);
            assertArrayEquals("hello".getBytes(), back);
            assertTrue(s.getSendBufferSize() > 0);
        }
        echo.get();
    }

    @Test
    void aReadWithATimeout_endsWithSocketTimeoutException() throws Exception {
        try (Socket s = new UnixSocketFactory(socketFile.toString()).createSocket("ignored", 1);
                SocketChannel peer = server.accept()) {
            s.setSoTimeout(50);
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read());
            peer.write(ByteBuffer.wrap(new byte[] {42}));
            s.setSoTimeout(0);
            assertEquals(42, s.getInputStream().read(), "the socket stays usable after a timeout");
        }
    }

    @Test
    void closingFromAnotherThread_endsABlockedRead() throws Exception {
        Socket s = new UnixSocketFactory(socketFile.toString()).createSocket("ignored", 1);
        try (SocketChannel peer = server.accept()) {
            InputStream in = s.getInputStream();
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return in.read();
                } catch (java.io.IOException closed) { // SocketException, or ClosedChannelException when closed first
                    return -2;
                }
            });
            s.close();
            int got = read.get();
            assertTrue(got == -2 || got == -1, "got " + got);
            assertTrue(s.isClosed());
        }
    }

    @Test
    void theEndOfTheStream_isMinusOne() throws Exception {
        try (Socket s = new UnixSocketFactory(socketFile.toString()).createSocket("ignored", 1)) {
            server.accept().close();
            assertEquals(-1, s.getInputStream().read());
        }
    }
}
