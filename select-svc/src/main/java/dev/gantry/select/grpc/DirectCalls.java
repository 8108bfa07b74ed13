package dev.gantry.select.grpc;

import io.grpc.ServerBuilder;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;

/**
 * Runs select-svc's calls on the transport's own threads (grpc-java's direct executor) instead of handing each to
 * Micronaut's I/O pool: one thread hand-off less each way on the path of every scheduling decision. Safe because no
 * handler blocks there: a call whose replica is behind its {@code min_revision} waits on a thread of its own
 * ({@link SelectGrpcService}), and the one client, scheduler-svc, sends its calls one after another.
 */
@Singleton
final class DirectCalls implements BeanCreatedEventListener<ServerBuilder<?>> {

    @Override
    public ServerBuilder<?> onCreated(BeanCreatedEvent<ServerBuilder<?>> event) {
        return event.getBean().directExecutor();
    }
}
