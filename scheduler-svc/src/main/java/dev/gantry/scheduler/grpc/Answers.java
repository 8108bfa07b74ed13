package dev.gantry.scheduler.grpc;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * How the controller's services answer a unary call from what the controller completes: off the controller thread
 * (through the {@code responses} executor, see SchedulerRuntime#responses), with the response made from the value, or
 * with the status of the failure ({@link ControllerGrpcService#status}). Stateless.
 */
final class Answers {
    private Answers() {}

    /** Completing through this moves what follows off the controller thread. */
    static final BiConsumer<Object, Throwable> HOP = (v, e) -> {};

    /**
     * Replies, from {@code responses}, with {@code response} of what {@code pending} completes with, or with the status
     * of its failure.
     */
    static <T, R> void answer(CompletableFuture<T> pending, Executor responses, StreamObserver<R> out,
            Function<T, R> response) {
        pending.whenCompleteAsync(HOP, responses)
                .whenComplete((r, e) -> reply(out, e != null ? null : response.apply(r), e));
    }

    /** Replies on the calling thread: the status of {@code error}, else {@code value} and the end of the call. */
    static <T> void reply(StreamObserver<T> out, T value, Throwable error) {
        if (error != null) {
            out.onError(ControllerGrpcService.status(error));
        } else {
            out.onNext(value);
            out.onCompleted();
        }
    }
}
