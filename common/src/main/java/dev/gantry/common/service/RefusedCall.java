package dev.gantry.common.service;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;

/**
 * A client call refused before it is sent: it ends at once with its status, as a server would have answered, so the
 * caller's usual error handling applies (a client interceptor returns it instead of the call).
 */
public final class RefusedCall<Q, R> extends ClientCall<Q, R> {

    private final Status status;

    public RefusedCall(Status status) {
        this.status = status;
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
        listener.onClose(status, new Metadata());
    }

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(String message, Throwable cause) {}

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(Q message) {}
}
