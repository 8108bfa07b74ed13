package dev.gantry.scheduler.grpc;

import dev.gantry.scheduler.store.DatabaseAvailability;
import dev.gantry.scheduler.store.DatabaseUnavailable;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Optional;
import java.util.Set;

/**
 * While the database is down, answers UNAVAILABLE ("database unavailable: …") at once to every call that changes
 * state or needs it durable, before it reaches the controller: nothing is changed and nothing acknowledged that could
 * not be committed, and no caller hangs. The calls listed in {@link #ANSWERED_FROM_MEMORY} pass: queries answered from
 * the controller's memory (squeue, scontrol show, sprio, sshare, the event and watch streams), token issuing, and the
 * agents' registrations and heartbeats (liveness is kept in memory; a node must not look dead because the database
 * is). A method not listed is gated, so a new RPC is safe by default. Stateless; thread-safe.
 */
final class DatabaseGate implements ServerInterceptor {

    /** Full method names served while the database is down. */
    static final Set<String> ANSWERED_FROM_MEMORY = Set.of(
            "gantry.v1.Controller/GetJob",
            "gantry.v1.Controller/GetBatchScript",
            "gantry.v1.Controller/ListJobs",
            "gantry.v1.Controller/StreamJobs",
            "gantry.v1.Controller/WatchJobs",
            "gantry.v1.Controller/ListNodes",
            "gantry.v1.Controller/ListPartitions",
            "gantry.v1.Controller/GetPriorities",
            "gantry.v1.Controller/GetShares",
            "gantry.v1.Controller/ListQos",
            "gantry.v1.Controller/CreateToken",
            "gantry.v1.Steps/ListSteps",
            "gantry.v1.AgentHub/RegisterNode",
            "gantry.v1.AgentHub/Heartbeat",
            "gantry.v1.ClusterEvents/WatchClusterEvents");

    private final DatabaseAvailability availability;

    DatabaseGate(DatabaseAvailability availability) {
        this.availability = availability;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        Optional<DatabaseUnavailable> outage = availability.outage();
        String method = call.getMethodDescriptor().getFullMethodName();
        if (outage.isEmpty() || ANSWERED_FROM_MEMORY.contains(method) || !method.startsWith("gantry.v1.")) {
            return next.startCall(call, headers);
        }
        call.close(Status.UNAVAILABLE.withDescription(outage.get().getMessage() + "; nothing was changed, try again"),
                new Metadata());
        return new ServerCall.Listener<>() {};
    }
}
