package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Singleton;

/** The revisioned event stream for select-svc and gang-svc (events.proto). */
@Singleton
public final class ClusterEventsGrpcService extends ClusterEventsGrpc.ClusterEventsImplBase {

    private final SchedulerRuntime runtime;

    public ClusterEventsGrpcService(SchedulerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void watchClusterEvents(WatchClusterEventsRequest request, StreamObserver<ClusterEvent> out) {
        String name = request.getSubscriber().isBlank() ? "anonymous" : request.getSubscriber();
        var feed = runtime.events().newFeed(name, out); // here: grpc-java lets the cancel handler be set only now
        // The snapshot is taken on the controller thread, so no event is missed or repeated after it.
        runtime.controller().run(() -> runtime.events().subscribe(feed, ClusterProtos.snapshot(runtime.state())))
                .whenComplete((v, error) -> {
                    if (error != null) {
                        feed.end(Status.INTERNAL.withDescription("subscribing failed: " + error));
                    }
                });
    }
}
