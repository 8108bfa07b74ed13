package dev.gantry.common.authn;

import dev.gantry.common.auth.Identity;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Set;

/**
 * The server side of caller identity: an interceptor that authenticates every call of the guarded services (a
 * {@link CallerAuthenticator}) and puts the caller's {@link Identity} in the call's context, where handlers read it
 * with {@link #current()}. A call without an accepted credential ends UNAUTHENTICATED before its handler runs. Calls
 * of other services (health, reflection) pass untouched. Thread-safe.
 */
public final class Callers implements ServerInterceptor {

    /** The header that carries the credential: "Bearer &lt;token&gt;" or "Munge &lt;credential&gt;". */
    public static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<Identity> IDENTITY = Context.key("gantry-caller");

    private final CallerAuthenticator authenticator;
    private final Set<String> guardedServices;

    /** @param guardedServices full service names whose calls need a caller, e.g. "gantry.v1.Controller" */
    public Callers(CallerAuthenticator authenticator, Set<String> guardedServices) {
        this.authenticator = authenticator;
        this.guardedServices = Set.copyOf(guardedServices);
    }

    /** The authenticated caller of the current call; fails when the call went through no guard. */
    public static Identity current() {
        Identity who = IDENTITY.get();
        if (who == null) {
            throw Status.UNAUTHENTICATED.withDescription("no authenticated caller").asRuntimeException();
        }
        return who;
    }

    /** The authenticated caller of the current call, when it went through a guard (empty in unguarded test servers). */
    public static java.util.Optional<Identity> currentIfAny() {
        return java.util.Optional.ofNullable(IDENTITY.get());
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        if (!guardedServices.contains(call.getMethodDescriptor().getServiceName())) {
            return next.startCall(call, headers);
        }
        Identity who;
        try {
            who = authenticator.authenticate(headers.get(AUTHORIZATION));
        } catch (AuthenticationException e) {
            call.close(Status.UNAUTHENTICATED.withDescription(e.getMessage()), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        return Contexts.interceptCall(Context.current().withValue(IDENTITY, who), call, headers, next);
    }
}
