package dev.gantry.agent.testing;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.HeartbeatResponse;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RegisterNodeResponse;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.ReportJobExitResponse;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.ServiceTls;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The controller's AgentHub as an in-process gRPC server that records every call. It can be down (every call
 * UNAVAILABLE), change its epoch (a controller restart), or refuse the next N exit reports.
 */
public final class FakeAgentHub extends AgentHubGrpc.AgentHubImplBase implements AutoCloseable {

    public final List<RegisterNodeRequest> registrations = new CopyOnWriteArrayList<>();
    /** Every RegisterNode call, answered or not. */
    public final AtomicInteger registerAttempts = new AtomicInteger();
    public final List<HeartbeatRequest> heartbeats = new CopyOnWriteArrayList<>();
    /** Every ReportJobExit call, refused or not. */
    public final List<ReportJobExitRequest> reportAttempts = new CopyOnWriteArrayList<>();
    /** The exit reports acknowledged, in order. */
    public final List<ReportJobExitRequest> exits = new CopyOnWriteArrayList<>();

    private final String name = InProcessServerBuilder.generateName();
    private final Server server;
    private final InternalServer loopback;
    private final ManagedChannel channel;
    private final AtomicInteger refuseReports = new AtomicInteger();
    private volatile String epoch = "epoch-1";
    private volatile long heartbeatIntervalSeconds = 1;
    private volatile boolean down;
    private boolean heldReports;
    private final List<Runnable> held = new java.util.ArrayList<>();

    /** Served in-process only. */
    public FakeAgentHub() {
        this(null);
    }

    /**
     * @param loopbackAs when set, also serve on a free loopback TCP port, for an agent that dials an address, as
     *     scheduler-svc's internal server does: mutual TLS with this identity, node agents only
     */
    public FakeAgentHub(ServiceTls loopbackAs) {
        try {
            server = InProcessServerBuilder.forName(name).addService(this).build().start();
            loopback = loopbackAs != null
                    ? InternalServer.on("127.0.0.1", 0, loopbackAs).serve(this, PeerAdmission.ANY_NODE).start()
                    : null;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        channel = InProcessChannelBuilder.forName(name).build();
    }

    public boolean hasAddress() {
        return loopback != null;
    }

    /** host:port of the loopback server. */
    public String address() {
        return "127.0.0.1:" + loopback.port();
    }

    public AgentHubGrpc.AgentHubBlockingStub stub() {
        return AgentHubGrpc.newBlockingStub(channel);
    }

    public void epoch(String value) {
        epoch = value;
    }

    public void heartbeatInterval(long seconds) {
        heartbeatIntervalSeconds = seconds;
    }

    public void down(boolean value) {
        down = value;
    }

    /** While held, exit reports are recorded as attempts and answered only once released. */
    public synchronized void holdReports(boolean value) {
        heldReports = value;
        if (!value) {
            held.forEach(Runnable::run);
            held.clear();
        }
    }

    public void refuseNextReports(int n) {
        refuseReports.set(n);
    }

    public Optional<ReportJobExitRequest> exitOf(long jobId) {
        return exits.stream().filter(e -> e.getJobId() == jobId).findFirst();
    }

    @Override
    public void registerNode(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> response) {
        registerAttempts.incrementAndGet();
        if (down) {
            response.onError(Status.UNAVAILABLE.withDescription("controller down").asRuntimeException());
            return;
        }
        registrations.add(request);
        response.onNext(RegisterNodeResponse.newBuilder().setControllerEpoch(epoch).setHeartbeatIntervalSeconds(heartbeatIntervalSeconds).build());
        response.onCompleted();
    }

    @Override
    public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> response) {
        if (down) {
            response.onError(Status.UNAVAILABLE.withDescription("controller down").asRuntimeException());
            return;
        }
        heartbeats.add(request);
        response.onNext(HeartbeatResponse.newBuilder().setControllerEpoch(epoch).build());
        response.onCompleted();
    }

    @Override
    public void reportJobExit(ReportJobExitRequest request, StreamObserver<ReportJobExitResponse> response) {
        reportAttempts.add(request);
        if (down || refuseReports.getAndUpdate(n -> Math.max(n - 1, 0)) > 0) {
            response.onError(Status.UNAVAILABLE.withDescription("not durable yet").asRuntimeException());
            return;
        }
        Runnable acknowledge = () -> {
            exits.add(request);
            response.onNext(ReportJobExitResponse.getDefaultInstance());
            response.onCompleted();
        };
        synchronized (this) {
            if (heldReports) {
                held.add(acknowledge);
                return;
            }
        }
        acknowledge.run();
    }

    @Override
    public void close() {
        channel.shutdownNow();
        server.shutdownNow();
        if (loopback != null) {
            loopback.close();
        }
    }
}
