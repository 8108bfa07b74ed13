package dev.gantry.cli.controller;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The credential a command proves its user with, sent on every call as the {@code authorization} header
 * (docs/security.md). Taken on the command's first call (a MUNGE credential anew for each call), from the first that
 * applies:
 * <ol>
 *   <li>a JSON web token in SLURM_JWT or GANTRY_JWT ({@code scontrol token});</li>
 *   <li>with GANTRY_AUTH=munge, a MUNGE credential from the site's munged ({@code munge -n}, socket GANTRY_MUNGE_SOCKET);</li>
 *   <li>a local token from the node's local authenticator: GANTRY_AUTH_SOCKET, else {@code auth.sock} beside the local
 *       cluster's {@code controller.addr}, else /run/gantry/auth.sock;</li>
 *   <li>a MUNGE credential, when munged's socket is there (GANTRY_MUNGE_SOCKET, else /run/munge/munge.socket.2);</li>
 * </ol>
 * else none, and the controller answers with what it accepts. Thread-safe.
 */
public final class CallerCredential implements ClientInterceptor {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    static final Path SYSTEM_SOCKET = Path.of("/run/gantry/auth.sock");
    static final Path DEFAULT_MUNGE_SOCKET = Path.of("/run/munge/munge.socket.2");

    private final Map<String, String> environment;
    private final Optional<Path> clusterDir;
    private String header;
    private boolean taken;
    private long takenAtNanos;
    private final java.util.function.LongSupplier nanos;
    private Prefetch prefetched;

    /** A local token being fetched from {@code socket}, awaited at most {@code within} at the first call. */
    private record Prefetch(FutureTask<String> token, Path socket, Duration within) {}

    /** How long a command waits for the local authenticator's answer before it gives up, naming the socket. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    /** @param clusterDir the directory of the controller address file the command found, if any */
    public CallerCredential(Map<String, String> environment, Optional<Path> clusterDir) {
        this(environment, clusterDir, System::nanoTime);
    }

    /** @param nanos the monotonic clock that ages a local token */
    CallerCredential(Map<String, String> environment, Optional<Path> clusterDir, java.util.function.LongSupplier nanos) {
        this.environment = environment;
        this.clusterDir = clusterDir;
        this.nanos = nanos;
    }

    /**
     * The credential of a tool of the local cluster in {@code runDir} (the launcher, tests): a token from the cluster's
     * local authenticator, or, where the cluster runs none (AuthType=auth/munge), a MUNGE credential from the socket its
     * config names.
     */
    public static CallerCredential forCluster(Path runDir) {
        Path socket = runDir.toAbsolutePath().normalize().resolve("auth.sock");
        Path config = runDir.resolve("gantry.conf");
        if (!Files.exists(socket) && Files.exists(config)) {
            var c = dev.gantry.common.config.ConfigParser.parse(config);
            if (c.get(dev.gantry.common.config.Keys.AUTH_TYPE).equals("auth/munge")) {
                Optional<String> mungeSocket = c.get(dev.gantry.common.config.Keys.AUTH_INFO).stream()
                        .filter(o -> o.startsWith("socket=")).map(o -> o.substring(7)).findFirst();
                return new CallerCredential(mungeSocket.map(m -> Map.of("GANTRY_AUTH", "munge", "GANTRY_MUNGE_SOCKET", m))
                        .orElse(Map.of("GANTRY_AUTH", "munge")), Optional.empty());
            }
        }
        return new CallerCredential(Map.of("GANTRY_AUTH_SOCKET", socket.toString()), Optional.empty());
    }

    /** The credential a command run in {@code workingDirectory} sends (the same discovery as its controller's). */
    public static CallerCredential forCommand(Map<String, String> environment, Path workingDirectory) {
        return new CallerCredential(environment,
                new ControllerLocator(environment, workingDirectory).addressFile().map(Path::getParent));
    }

    /**
     * Starts fetching a local token now, on a thread of its own, where that is the credential the command will send:
     * a fresh JVM spends about 25 ms setting up the security providers and the Unix socket for it, which then overlaps
     * the command's own start (options, gRPC classes, the channel) instead of following it. Other credentials are
     * taken at the first call as before (a MUNGE credential is single-use; a JWT costs nothing). Returns this.
     */
    public CallerCredential prefetch() {
        return prefetch(ANSWER_WITHIN);
    }

    /** {@link #prefetch()}, waiting at most {@code within} for the answer at the call. */
    CallerCredential prefetch(Duration within) {
        boolean tokenInEnvironment = List.of("SLURM_JWT", "GANTRY_JWT").stream().anyMatch(n -> !environment.getOrDefault(n, "").isBlank());
        boolean mungeFirst = "munge".equalsIgnoreCase(environment.getOrDefault("GANTRY_AUTH", ""));
        Optional<Path> socket = tokenInEnvironment || mungeFirst ? Optional.empty() : localSocket();
        if (socket.isPresent()) {
            FutureTask<String> task = new FutureTask<>(() -> "Bearer " + localToken(socket.get()));
            Thread thread = new Thread(task, "gantry-credential");
            thread.setDaemon(true);
            thread.start();
            synchronized (this) {
                prefetched = new Prefetch(task, socket.get(), within);
            }
        }
        return this;
    }

    /**
     * The header's value, or null when no credential could be had. A token is taken once per command; a MUNGE
     * credential once per call (munged refuses one decoded before).
     */
    synchronized String header() {
        if (taken && header != null && header.startsWith("Bearer ") && localTokenAged()) {
            taken = false; // a long-lived client (a test, a program on the API) takes a fresh local token
            prefetched = null;
        }
        if (!taken) {
            header = prefetched != null ? awaitPrefetched() : take();
            taken = true;
            takenAtNanos = nanos.getAsLong();
        }
        if (header != null && header.startsWith("Munge ")) {
            String current = header;
            header = null;
            taken = false; // the next call gets a fresh one
            return current;
        }
        return header;
    }

    /**
     * A local token (not one from the environment, which cannot be renewed) is taken again after half its lifetime
     * ({@code Tokens.LOCAL_LIFETIME}), so a client that lives longer than a token keeps being authenticated.
     */
    private boolean localTokenAged() {
        boolean fromEnvironment = List.of("SLURM_JWT", "GANTRY_JWT").stream().anyMatch(n -> !environment.getOrDefault(n, "").isBlank());
        return !fromEnvironment
                && nanos.getAsLong() - takenAtNanos > dev.gantry.common.auth.Tokens.LOCAL_LIFETIME.dividedBy(2).toNanos();
    }

    private String awaitPrefetched() {
        try {
            return prefetched.token().get(prefetched.within().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CredentialUnavailableException("the local authenticator at " + prefetched.socket()
                    + " did not answer within " + prefetched.within().toMillis() + " ms (is the node agent running?)");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new CredentialUnavailableException("cannot get a local token: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CredentialUnavailableException("interrupted while getting a local token");
        }
    }

    private String take() {
        for (String name : List.of("SLURM_JWT", "GANTRY_JWT")) {
            String jwt = environment.get(name);
            if (jwt != null && !jwt.isBlank()) {
                return "Bearer " + jwt.trim();
            }
        }
        boolean mungeFirst = "munge".equalsIgnoreCase(environment.getOrDefault("GANTRY_AUTH", ""));
        if (mungeFirst) {
            return munge().orElse(null);
        }
        Optional<Path> socket = localSocket();
        if (socket.isPresent()) {
            return "Bearer " + localToken(socket.get());
        }
        // MUNGE only where munged answers here (its socket exists): else no credential, and the controller says what it
        // accepts
        return Files.exists(mungeSocket()) ? munge().orElse(null) : null;
    }

    private Optional<Path> localSocket() {
        String configured = environment.get("GANTRY_AUTH_SOCKET");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        Optional<Path> beside = clusterDir.map(d -> d.resolve("auth.sock")).filter(Files::exists);
        return beside.isPresent() ? beside : Optional.of(SYSTEM_SOCKET).filter(Files::exists);
    }

    /** One line from the local authenticator: the token, or "ERROR reason". */
    static String localToken(Path socket) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                if (buffer.position() > 0 && buffer.get(buffer.position() - 1) == '\n') {
                    break;
                }
            }
            String line = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            if (line.startsWith("ERROR ")) {
                throw new CredentialUnavailableException("the local authenticator at " + socket + " refused: " + line.substring(6));
            }
            return line;
        } catch (IOException e) {
            throw new CredentialUnavailableException("cannot reach the local authenticator at " + socket + ": " + e.getMessage());
        }
    }

    private Path mungeSocket() {
        String socket = environment.get("GANTRY_MUNGE_SOCKET");
        return socket == null || socket.isBlank() ? DEFAULT_MUNGE_SOCKET : Path.of(socket);
    }

    private Optional<String> munge() {
        Path munge = Path.of("/usr/bin/munge");
        if (!Files.isExecutable(munge)) {
            return Optional.empty();
        }
        String socket = environment.get("GANTRY_MUNGE_SOCKET");
        ProcessBuilder builder = socket == null || socket.isBlank() ? new ProcessBuilder(munge.toString(), "-n")
                : new ProcessBuilder(munge.toString(), "-n", "--socket=" + socket);
        try {
            Process p = builder.redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new CredentialUnavailableException("munge -n failed: " + out);
            }
            return Optional.of("Munge " + out);
        } catch (IOException e) {
            throw new CredentialUnavailableException("cannot run munge: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CredentialUnavailableException("interrupted while getting a MUNGE credential");
        }
    }

    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
        String value;
        try {
            value = header();
        } catch (CredentialUnavailableException e) {
            return new dev.gantry.common.service.RefusedCall<>(Status.UNAUTHENTICATED.withDescription(e.getMessage()));
        }
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<A> listener, Metadata headers) {
                if (value != null) {
                    headers.put(AUTHORIZATION, value);
                }
                super.start(listener, headers);
            }
        };
    }

    /** No credential could be had where one was expected; its message says why (the command prints it). */
    public static final class CredentialUnavailableException extends RuntimeException {
        public CredentialUnavailableException(String message) {
            super(message);
        }
    }
}
