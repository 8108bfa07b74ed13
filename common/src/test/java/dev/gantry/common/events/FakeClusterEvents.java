package dev.gantry.common.events;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A ClusterEvents server the test scripts by hand: each WatchClusterEvents call becomes a {@link ServerStream}. */
final class FakeClusterEvents extends ClusterEventsGrpc.ClusterEventsImplBase {

    private final BlockingQueue<ServerStream> opened = new LinkedBlockingQueue<>();

    @Override
    public void watchClusterEvents(WatchClusterEventsRequest request, StreamObserver<ClusterEvent> observer) {
        ServerCallStreamObserver<ClusterEvent> call = (ServerCallStreamObserver<ClusterEvent>) observer;
        ServerStream stream = new ServerStream(request.getSubscriber(), call);
        call.setOnCancelHandler(stream.cancelled::countDown);
        opened.add(stream);
    }

    /** The next stream a client opened (waits generously for it). */
    ServerStream awaitStream() throws InterruptedException {
        ServerStream stream = opened.poll(30, TimeUnit.SECONDS);
        assertNotNull(stream, "no WatchClusterEvents call arrived");
        return stream;
    }

    static final class ServerStream {
        final String subscriber;
        private final ServerCallStreamObserver<ClusterEvent> call;
        private final CountDownLatch cancelled = new CountDownLatch(1);

        ServerStream(String subscriber, ServerCallStreamObserver<ClusterEvent> call) {
            this.subscriber = subscriber;
            this.call = call;
        }

        ServerStream send(ClusterEvent... events) {
            for (ClusterEvent event : events) {
                call.onNext(event);
            }
            return this;
        }

        void fail(Status status) {
            call.onError(status.asRuntimeException());
        }

        void complete() {
            call.onCompleted();
        }

        /** Waits until the client cancelled this stream; false if it did not within the (generous) timeout. */
        boolean awaitCancelledByClient() throws InterruptedException {
            return cancelled.await(30, TimeUnit.SECONDS);
        }
    }
}
