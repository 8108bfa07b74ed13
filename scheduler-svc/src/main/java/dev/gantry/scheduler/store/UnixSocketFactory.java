package dev.gantry.scheduler.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for a PostgreSQL that listens only on a Unix socket: every socket connects to the
 * socket file named by {@code socketFactoryArg}, whatever host and port the JDBC URL names. Over the JDK's own
 * Unix-domain channels ({@link UnixSocket}), so no native library comes with it.
 */
public final class UnixSocketFactory extends SocketFactory {

    private final Path socketFile;

    /** @param socketFile the server's socket file, e.g. {@code state/pgsocket/.s.PGSQL.5432} (pgjdbc's socketFactoryArg) */
    public UnixSocketFactory(String socketFile) {
        if (socketFile == null || socketFile.isBlank()) {
            throw new IllegalArgumentException("socketFactoryArg must name the server's socket file");
        }
        this.socketFile = Path.of(socketFile);
    }

    @Override
    public Socket createSocket() {
        return new UnixSocket(socketFile);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected();
    }

    private Socket connected() throws IOException {
        UnixSocket s = new UnixSocket(socketFile);
        s.connect(null, 0);
        return s;
    }
}
