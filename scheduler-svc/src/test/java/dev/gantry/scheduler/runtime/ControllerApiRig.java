package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.scheduler.grpc.ControllerGrpcService;
import dev.gantry.scheduler.store.StateStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The client API (ControllerGrpcService) served in-process over a {@link ControllerHarness}: what clients see over
 * gRPC, with no select-svc and no agents. {@link #restart()} starts a new controller from what the old one stored.
 */
final class ControllerApiRig implements AutoCloseable {

    private final String config;
    private final StateStore stateStore = new StateStore.InMemory();
    private final ExecutorService responses = Executors.newVirtualThreadPerTaskExecutor();
    private ControllerHarness harness;
    private Server server;
    private ManagedChannel channel;
    private ControllerGrpc.ControllerBlockingStub stub;

    ControllerApiRig(String config) throws Exception {
        this.config = config;
        serve(new ControllerHarness(config, new ControllerHarness.MemoryStore(), stateStore));
    }

    /** The blocking stub of the current controller. */
    ControllerGrpc.ControllerBlockingStub api() {
        return stub;
    }

    /** The controller behind the API (its clock, its passes). */
    ControllerHarness harness() {
        return harness;
    }

    /** Stops the controller and starts a new one from the same store, as a controller restart does. */
    void restart() throws Exception {
        ControllerHarness.MemoryStore store = harness.store;
        stop();
        serve(new ControllerHarness(config, store, stateStore));
    }

    private void serve(ControllerHarness h) throws IOException {
        harness = h;
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(new ControllerGrpcService(h.controller, h.controller.state, h.jobStore,
                        new JobWatch(h.controller), responses))
                .build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        stub = ControllerGrpc.newBlockingStub(channel);
    }

    private void stop() {
        channel.shutdownNow();
        server.shutdownNow();
        harness.close(); // waits for the group commit to drain
    }

    @Override
    public void close() {
        stop();
        responses.shutdownNow();
    }
}
