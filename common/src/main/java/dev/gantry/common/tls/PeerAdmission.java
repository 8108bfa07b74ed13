package dev.gantry.common.tls;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which peers may make a call (server side) or be reached (client side), with the words a refusal uses for them.
 * Values; {@link #admits} is pure.
 *
 * @param who what the rule admits, for messages: "gang-svc", "scheduler-svc or a node agent", "node n3"
 */
public record PeerAdmission(String who, Predicate<Peer> test) {

    /** Any peer the cluster CA certified (a service or a node agent). */
    public static final PeerAdmission ANY_PEER = new PeerAdmission("a service or node agent of this cluster", p -> true);
    /** Any node agent. */
    public static final PeerAdmission ANY_NODE = new PeerAdmission("a node agent", p -> p instanceof Peer.Node);

    /** Exactly this peer. */
    public static PeerAdmission only(Peer peer) {
        return new PeerAdmission(peer instanceof Peer.Service ? peer.name() : peer.toString(), peer::equals);
    }

    /** Any of these services. */
    public static PeerAdmission services(Peer.Service... services) {
        List<Peer.Service> list = List.of(services);
        String who = String.join(" or ", Arrays.stream(services).map(Peer::name).toList());
        return new PeerAdmission(who, list::contains);
    }

    /** This rule's peers and {@code other}'s. */
    public PeerAdmission or(PeerAdmission other) {
        return new PeerAdmission(who + " or " + other.who, test.or(other.test));
    }

    public boolean admits(Peer peer) {
        return test.test(peer);
    }
}
