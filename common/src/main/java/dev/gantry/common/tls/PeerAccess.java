package dev.gantry.common.tls;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of service identity: establishes the calling {@link Peer} from the TLS session's client certificate
 * (the handshake already checked it against the cluster CA, {@link CaTrust}), admits the call by the rule of its
 * method or else of its service, and puts the peer in the call's context, where handlers read it with
 * {@link #current()} and check per request what only they can ({@link #speaksFor}). A refusal is PERMISSION_DENIED
 * naming the method, who may call it and who called, and is logged. Thread-safe.
 */
public final class PeerAccess implements ServerInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(PeerAccess.class);
    private static final Context.Key<Peer> PEER = Context.key("gantry-peer");
    /** The peer is parsed from a session's certificate once and kept with the session. */
    private static final String SESSION_PEER = "gantry.peer";

    private final Map<String, PeerAdmission> byService;
    private final Map<String, PeerAdmission> byMethod;

    /**
     * @param byService full service name ("gantry.v1.AgentHub") → who may call it
     * @param byMethod full method name ("gantry.v1.NodeAgent/LaunchJob") → who may call it, over its service's rule
     */
    public PeerAccess(Map<String, PeerAdmission> byService, Map<String, PeerAdmission> byMethod) {
        this.byService = Map.copyOf(byService);
        this.byMethod = Map.copyOf(byMethod);
    }

    /** The peer making the current call; fails when the call came through no {@link PeerAccess}. */
    public static Peer current() {
        Peer peer = PEER.get();
        if (peer == null) {
            throw Status.UNAUTHENTICATED.withDescription("no authenticated service peer").asRuntimeException();
        }
        return peer;
    }

    /**
     * Whether the current caller is the agent of {@code node}, for requests that speak for a node (registration,
     * heartbeats, exits): an agent speaks only for its own node. If not, ends the call on {@code out} with
     * PERMISSION_DENIED naming the node claimed and the one the certificate names, logs it, and answers false.
     *
     * @param what the request, for the message and the log ("gantry.v1.AgentHub/Heartbeat")
     */
    public static boolean speaksFor(String node, String what, StreamObserver<?> out) {
        Peer caller = current();
        if (caller instanceof Peer.Node n && n.name().equals(node)) {
            return true;
        }
        String message = what + " for node " + node + " refused: the caller's certificate names " + caller
                + (caller instanceof Peer.Node ? "; an agent speaks only for its own node" : "");
        LOG.warn("{}", message);
        out.onError(Status.PERMISSION_DENIED.withDescription(message).asRuntimeException());
        return false;
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        String method = call.getMethodDescriptor().getFullMethodName();
        Optional<Peer> peer = peerOf(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
        if (peer.isEmpty()) {
            return refuse(call, Status.UNAUTHENTICATED, method + " refused: the caller presented no cluster certificate");
        }
        PeerAdmission rule = byMethod.get(method);
        if (rule == null) {
            rule = byService.get(call.getMethodDescriptor().getServiceName());
        }
        if (rule == null || !rule.admits(peer.get())) {
            return refuse(call, Status.PERMISSION_DENIED, method + " refused to " + peer.get() + ": only "
                    + (rule == null ? "nobody" : rule.who()) + " may call it");
        }
        return Contexts.interceptCall(Context.current().withValue(PEER, peer.get()), call, headers, next);
    }

    private static <Q, A> ServerCall.Listener<Q> refuse(ServerCall<Q, A> call, Status status, String message) {
        LOG.warn("{} (from {})", message, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        call.close(status.withDescription(message), new Metadata());
        return new ServerCall.Listener<>() { };
    }

    /** The peer the session's client certificate names. */
    static Optional<Peer> peerOf(SSLSession session) {
        if (session == null) {
            return Optional.empty();
        }
        if (session.getValue(SESSION_PEER) instanceof Peer known) {
            return Optional.of(known);
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
                return Optional.empty();
            }
            Optional<Peer> peer = Peer.of(leaf);
            peer.ifPresent(p -> session.putValue(SESSION_PEER, p));
            return peer;
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty();
        }
    }
}
