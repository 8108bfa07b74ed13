package dev.gantry.scheduler;

import dev.gantry.scheduler.store.SharedEmbeddedServer;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The local cluster's shared embedded PostgreSQL when two controllers share it (scheduler-svc's jar with
 * GANTRY_DATABASE_SERVER=true): starts the server in GANTRY_STATE_DIR ({@link SharedEmbeddedServer}), answers gRPC health
 * on GANTRY_GRPC_PORT (SERVING while the postmaster runs, so {@code gantry up} and {@code gantry status} see it as any
 * service), and stops the server on SIGTERM. Exits when the postmaster dies, so the supervisor restarts both.
 */
final class DatabaseServerApplication {

    private DatabaseServerApplication() {}

    static void run() throws Exception {
        Path state = Path.of(System.getenv().getOrDefault("GANTRY_STATE_DIR", ".gantry/state"));
        int port = Integer.parseInt(System.getenv().getOrDefault("GANTRY_GRPC_PORT", "6819"));
        String host = System.getenv().getOrDefault("GANTRY_BIND_HOST", "127.0.0.1");
        SharedEmbeddedServer db = SharedEmbeddedServer.start(state, 60);
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("", ServingStatus.SERVING);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port)).addService(health.getHealthService())
                .build().start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            db.close();
            stopped.countDown();
        }));
        System.out.println("scheduler-svc: shared embedded PostgreSQL (pid " + db.pid() + ") in " + state + ", health on " + host + ":" + port);
        while (db.alive()) {
            Thread.sleep(500);
        }
        System.err.println("scheduler-svc: the shared embedded PostgreSQL (pid " + db.pid() + ") exited");
        System.exit(1);
    }
}
