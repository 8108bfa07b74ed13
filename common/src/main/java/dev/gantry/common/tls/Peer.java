package dev.gantry.common.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Who a cluster certificate names: one of Gantry's services, or the node agent of one node. A certificate carries it
 * as a URI subject alternative name, {@code urn:gantry:service:NAME} or {@code urn:gantry:node:NAME}, and as its CN
 * (for people; only the URI counts). Values; {@link #toString} is how refusals and logs name a peer.
 */
public sealed interface Peer {

    String URN = "urn:gantry:";
    /** What a service or node name may hold (declared before the constants below, which check their names with it). */
    Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** scheduler-svc, the controller. */
    Service SCHEDULER = new Service("scheduler-svc");
    /** select-svc, placement. */
    Service SELECT = new Service("select-svc");
    /** gang-svc, time slicing. */
    Service GANG = new Service("gang-svc");
    /** The services a certificate may name. */
    List<Service> SERVICES = List.of(SCHEDULER, SELECT, GANG);

    /** The service's or node's name (the certificate's CN). */
    String name();

    /** The URI subject alternative name that names this peer. */
    String uri();

    /** One of the cluster's services. */
    record Service(String name) implements Peer {
        public Service {
            checkName(name);
        }

        @Override
        public String uri() {
            return URN + "service:" + name;
        }

        @Override
        public String toString() {
            return "service " + name;
        }
    }

    /** The node agent of node {@code name} (its NodeName). */
    record Node(String name) implements Peer {
        public Node {
            checkName(name);
        }

        @Override
        public String uri() {
            return URN + "node:" + name;
        }

        @Override
        public String toString() {
            return "node " + name;
        }
    }

    /** The peer a URI names, if it is one of ours. */
    static Optional<Peer> fromUri(String uri) {
        if (uri == null || !uri.startsWith(URN)) {
            return Optional.empty();
        }
        String rest = uri.substring(URN.length());
        int colon = rest.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String kind = rest.substring(0, colon);
        String name = rest.substring(colon + 1);
        if (!NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return switch (kind) {
            case "service" -> Optional.of(new Service(name));
            case "node" -> Optional.of(new Node(name));
            default -> Optional.empty();
        };
    }

    /**
     * The peer a certificate names: its one {@code urn:gantry:} URI subject alternative name. Empty when it has none,
     * or more than one (a certificate speaks for one peer).
     */
    static Optional<Peer> of(X509Certificate certificate) {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return Optional.empty();
        }
        if (names == null) {
            return Optional.empty();
        }
        Peer found = null;
        for (List<?> name : names) {
            if (name.size() >= 2 && Integer.valueOf(6).equals(name.get(0)) && name.get(1) instanceof String uri
                    && uri.startsWith(URN)) { // 6: uniformResourceIdentifier
                Optional<Peer> peer = fromUri(uri);
                if (peer.isEmpty() || found != null) {
                    return Optional.empty();
                }
                found = peer.get();
            }
        }
        return Optional.ofNullable(found);
    }

    /** "service:NAME" or "node:NAME", as the {@code gantry certs} command takes it. */
    static Peer parse(String spec) {
        if (spec.startsWith("service:")) {
            return new Service(spec.substring("service:".length()));
        }
        if (spec.startsWith("node:")) {
            return new Node(spec.substring("node:".length()));
        }
        throw new IllegalArgumentException("'" + spec + "': expected service:NAME or node:NAME");
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "': a service or node name has letters, digits, '.', '_' and '-' only");
        }
    }
}
