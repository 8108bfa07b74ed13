package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.EventLog;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/** The revisioned event stream for select-svc and gang-svc (events.proto); on the internal server, for them only. */
public final class ClusterEventsGrpcService extends ClusterEventsGrpc.ClusterEventsImplBase {

    private final EventLog events;
    private final Controller controller;

    public ClusterEventsGrpcService(SchedulerRuntime runtime) {
        this(runtime.events(), runtime.controller());
    }

    public ClusterEventsGrpcService(EventLog events, Controller controller) {
        this.events = events;
        this.controller = controller;
    }

    @Override
    public void watchClusterEvents(WatchClusterEventsRequest request, StreamObserver<ClusterEvent> out) {
        String name = request.getSubscriber().isBlank() ? "anonymous" : request.getSubscriber();
        var feed = events.newFeed(name, out); // here: grpc-java lets the cancel handler be set only now
        // The snapshot is taken on the controller thread, so no event is missed or repeated after it.
        controller.run(() -> events.subscribe(feed, ClusterProtos.snapshot(controller.state())))
                .whenComplete((v, error) -> {
                    if (error != null) {
                        feed.end(Status.INTERNAL.withDescription("subscribing failed: " + error));
                    }
                });
    }
}
