package dev.gantry.cli.testing;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;

import dev.gantry.api.v1.NodeState;
import io.grpc.Server;
import io.grpc.InsecureServerCredentials;
import io.grpc.okhttp.OkHttpServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A {@link FakeController} on a real loopback port, for measuring the commands end to end:
 * <pre>
 *   java -cp cli/target/test-classes:cli/target/classes:'cli/target/lib/*' \
 *       dev.gantry.cli.testing.FakeControllerServer [--port N] [--jobs N] [--addr-file PATH]
 * </pre>
 * Prints "host:port" on standard output once listening (and writes it to --addr-file), then serves until killed.
 * The cluster: nodes n[1-4], partitions debug (default, all nodes) and long (n[3-4]); half the jobs running.
 */
public final class FakeControllerServer {

    private FakeControllerServer() {}

    public static void main(String[] args) throws Exception {
        int port = 0;
        int jobs = 20;
        Path addressFile = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--jobs" -> jobs = Integer.parseInt(args[i + 1]);
                case "--addr-file" -> addressFile = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        FakeController controller = seeded(new FakeController(Instant.now()), jobs);
        Server server = OkHttpServerBuilder.forPort(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                        InsecureServerCredentials.create())
                .addService(controller)
                .build()
                .start();
        String address = "127.0.0.1:" + server.getPort();
        if (addressFile != null) {
            Files.createDirectories(addressFile.toAbsolutePath().getParent());
            Files.writeString(addressFile, address + "\n", StandardCharsets.UTF_8);
        }
        System.out.println(address);
        System.out.flush();
        server.awaitTermination();
    }

    /** Four nodes, two partitions and {@code jobs} jobs of alice's, every other one running on a node. */
    static FakeController seeded(FakeController controller, int jobs) {
        controller.withPartition(aPartition("debug", "n1", "n2", "n3", "n4").setIsDefault(true).build())
                .withPartition(aPartition("long", "n3", "n4").setMaxTimeSeconds(7 * 86400).build());
        for (int n = 1; n <= 4; n++) {
            String name = "n" + n;
            controller.withNode(aNode(name, n >= 3 ? new String[] {"debug", "long"} : new String[] {"debug"})
                    .setState(n <= 2 ? NodeState.NODE_STATE_MIXED : NodeState.NODE_STATE_IDLE)
                    .setAgentAddress("127.0.0.1:" + (7000 + n))
                    .build());
        }
        for (int i = 1; i <= jobs; i++) {
            var job = aJob(i);
            if (i % 2 == 0) {
                job = ClusterFixtures.running(job, 60L * i, "n" + (1 + (i / 2) % 2));
            }
            controller.withJob(job.build());
        }
        return controller;
    }
}
