package dev.gantry.cli.warmup;

import dev.gantry.cli.CliContext;
import dev.gantry.cli.Main;
import dev.gantry.cli.controller.CallerCredential;
import dev.gantry.cli.controller.ControllerAddress;
import dev.gantry.cli.controller.ControllerChannels;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.okhttp.OkHttpServerBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The training workload for the JVM's class-data archive (CDS, or the JDK 25 AOT cache) that the bin/
 * wrappers build once per jar and JDK: runs every command, on their common paths and some error paths,
 * against a {@link WarmupController} on a loopback port, through the same OkHttp channels real commands
 * use. Output is discarded. Exits 0 when every run went as expected.
 */
public final class WarmupRun {

    private static final List<List<String>> RUNS = List.of(
            List.of("sbatch", "--wrap=true", "-N", "1", "-n", "1", "-t", "10", "--mem=1G", "-J", "warmup"),
            List.of("sbatch", "--parsable", "-p", "debug", "--wrap", "true"),
            List.of("sbatch", "--wait", "--wrap", "true"),
            List.of("squeue"),
            List.of("squeue", "-l"),
            List.of("squeue", "-h", "-o", "%i %P %j %u %t %T %M %D %R %N %S %l %C %r %V %e %Z", "-S", "-i", "-t", "all"),
            List.of("squeue", "-j", "1", "-u", "gantry", "-p", "debug"),
            List.of("sinfo"),
            List.of("sinfo", "-N", "-h"),
            List.of("scontrol", "show", "job", "1"),
            List.of("scontrol", "show", "node"),
            List.of("scontrol", "show", "partition"),
            List.of("scontrol", "hold", "2"),
            List.of("squeue", "--start"),
            List.of("sprio"),
            List.of("sprio", "-l"),
            List.of("sshare", "-l", "-a"),
            List.of("scancel", "1", "2"),
            List.of("squeue", "--bogus"),
            List.of("sbatch", "-N", "x", "--wrap", "true"),
            List.of("squeue", "--version"),
            List.of("squeue", "--help"));

    private WarmupRun() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        System.exit(run().isEmpty() ? 0 : 1);
    }

    /**
     * Runs the workload; returns the runs that did not exit as expected (empty when all did). Each run fetches its
     * credential as commands do, ahead of its call, from a stand-in local authenticator on a temporary Unix socket.
     */
    public static List<String> run() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("gantry-warmup");
        Path socket = dir.resolve("auth.sock");
        ServerSocketChannel authenticator = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        authenticator.bind(UnixDomainSocketAddress.of(socket));
        Thread tokens = new Thread(() -> answer(authenticator), "warmup-authenticator");
        tokens.setDaemon(true);
        tokens.start();
        Server server = OkHttpServerBuilder
                .forPort(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), InsecureServerCredentials.create())
                .addService(new WarmupController())
                .build()
                .start();
        List<String> failures = new java.util.ArrayList<>();
        try {
            ControllerAddress address = new ControllerAddress("127.0.0.1", server.getPort());
            PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
            CliContext system = CliContext.system();
            for (List<String> run : RUNS) {
                CliContext context = new CliContext(discard, discard,
                        new ByteArrayInputStream(new byte[0]), Map.of(), system.workingDirectory(),
                        system.clock(), system.timeZone(), () -> ControllerChannels.open(address,
                                new CallerCredential(Map.of("GANTRY_AUTH_SOCKET", socket.toString()), Optional.empty()).prefetch()),
                        system.account());
                int code = Main.run(run.toArray(String[]::new), context);
                boolean shouldFail = run.contains("--bogus") || run.contains("x");
                if ((code != 0) != shouldFail) {
                    failures.add(run + " exited " + code);
                }
            }
        } finally {
            server.shutdownNow();
            server.awaitTermination();
            authenticator.close();
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
        return failures;
    }

    /** Answers every connection with a stand-in token, as the node's local authenticator answers with a real one. */
    private static void answer(ServerSocketChannel authenticator) {
        while (authenticator.isOpen()) {
            try (SocketChannel c = authenticator.accept()) {
                c.write(ByteBuffer.wrap("warmup.token.unsigned\n".getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException e) {
                return; // closed
            }
        }
    }
}
