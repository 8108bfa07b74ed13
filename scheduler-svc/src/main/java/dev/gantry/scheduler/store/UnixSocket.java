package dev.gantry.scheduler.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A {@link Socket} over a JDK Unix-domain {@link SocketChannel}, for pgjdbc: connect (to the socket file, whatever
 * address is given), streams, {@link #setSoTimeout} honoured on reads (pgjdbc's socketTimeout, Hikari's validation
 * timeout), close. The TCP options are accepted and ignored. The channel is non-blocking and waits in a selector,
 * so a read can time out.
 *
 * <p>Thread-safety: one reader and one writer at a time (pgjdbc's use); {@link #close} may come from any thread and
 * ends a blocked read or write.
 */
final class UnixSocket extends Socket {

    private final Path socketFile;
    private SocketChannel channel;
    private Selector readable;
    private Selector writable;
    private volatile int timeoutMillis;
    private volatile boolean closed;
    private InputStream in;
    private OutputStream out;

    UnixSocket(Path socketFile) {
        this.socketFile = socketFile;
    }

    @Override
    public synchronized void connect(SocketAddress ignored, int timeout) throws IOException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        if (channel != null) {
            throw new SocketException("already connected");
        }
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socketFile)); // a Unix socket connects at once or fails
            ch.configureBlocking(false);
            readable = Selector.open();
            writable = Selector.open();
            ch.register(readable, SelectionKey.OP_READ);
            ch.register(writable, SelectionKey.OP_WRITE);
        } catch (IOException | RuntimeException e) {
            ch.close();
            closeSelectors();
            throw new SocketException(socketFile + ": " + e.getMessage());
        }
        channel = ch;
        in = new In();
        out = new Out();
    }

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        throw new SocketException("a Unix socket to " + socketFile + " binds no local address");
    }

    @Override
    public boolean isConnected() {
        return channel != null;
    }

    @Override
    public boolean isBound() {
        return channel != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        return open().in;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        return open().out;
    }

    private UnixSocket open() throws SocketException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        if (channel == null) {
            throw new SocketException("Socket is not connected");
        }
        return this;
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0");
        }
        timeoutMillis = timeout;
    }

    @Override
    public int getSoTimeout() {
        return timeoutMillis;
    }

    @Override
    public void setTcpNoDelay(boolean on) {
        // no Nagle on a Unix socket
    }

    @Override
    public boolean getTcpNoDelay() {
        return true;
    }

    @Override
    public void setKeepAlive(boolean on) {
        // the peer is on this host; its end closes the socket
    }

    @Override
    public boolean getKeepAlive() {
        return false;
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public void setSendBufferSize(int size) {
        // the kernel's default for Unix sockets is kept
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public void setReceiveBufferSize(int size) {
        // the kernel's default for Unix sockets is kept
    }

    private int option(java.net.SocketOption<Integer> name) throws SocketException {
        try {
            return open().channel.getOption(name);
        } catch (IOException e) {
            throw new SocketException(e.getMessage());
        }
    }

    @Override
    public void shutdownInput() throws IOException {
        open().channel.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        open().channel.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            if (channel != null) {
                channel.close();
            }
        } finally {
            closeSelectors(); // wakes a read or write waiting in them
        }
    }

    private void closeSelectors() throws IOException {
        for (Selector s : new Selector[] {readable, writable}) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Override
    public String toString() {
        return "UnixSocket[" + socketFile + (closed ? ", closed" : "") + "]";
    }

    /** Waits until {@code selector}'s channel is ready, at most {@code millis} (0: no limit). */
    private void await(Selector selector, long millis, String what) throws IOException {
        long deadline = millis == 0 ? 0 : System.nanoTime() + millis * 1_000_000;
        while (true) {
            if (closed) {
                throw new SocketException("Socket closed");
            }
            int ready;
            try {
                if (millis == 0) {
                    ready = selector.select();
                } else {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        throw new SocketTimeoutException(what + " timed out");
                    }
                    ready = selector.select(left);
                }
                selector.selectedKeys().clear();
            } catch (ClosedSelectorException e) {
                throw new SocketException("Socket closed");
            }
            if (ready > 0) {
                return;
            }
        }
    }

    private final class In extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            while (true) {
                int n = channel.read(buf);
                if (n != 0) {
                    return n; // bytes, or -1 at the end
                }
                await(readable, timeoutMillis, "Read");
            }
        }

        @Override
        public void close() throws IOException {
            UnixSocket.this.close();
        }
    }

    private final class Out extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            while (buf.hasRemaining()) {
                if (channel.write(buf) == 0) {
                    await(writable, 0, "Write"); // SO_TIMEOUT is for reads, as on a TCP socket
                }
            }
        }

        @Override
        public void close() throws IOException {
            UnixSocket.this.close();
        }
    }
}
