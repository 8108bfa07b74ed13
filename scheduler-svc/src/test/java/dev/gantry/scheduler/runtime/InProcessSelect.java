package dev.gantry.scheduler.runtime;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/** A test's scripted select-svc, served in process (direct executor), and the channel a scheduling loop calls it on. */
final class InProcessSelect implements AutoCloseable {

    final ManagedChannel channel;
    private final Server server;

    InProcessSelect(BindableService select) {
        String name = InProcessServerBuilder.generateName();
        try {
            server = InProcessServerBuilder.forName(name).directExecutor().addService(select).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @Override
    public void close() {
        channel.shutdownNow();
        server.shutdownNow();
    }
}
