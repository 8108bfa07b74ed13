package dev.gantry.e2e.k8s;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes NetworkPolicy semantics for the subset Gantry's manifests use (matchLabels selectors, numeric ports,
 * pod and namespace peers): a connection is allowed when the destination pod's ingress and the source pod's egress
 * both allow it. A pod no policy selects for a direction is open in that direction; otherwise some rule of a policy
 * selecting it must match. Selectors with matchExpressions or named ports are refused rather than guessed at.
 */
public final class NetworkPolicies {

    /** A pod, by its labels and its namespace's labels ({@code kubernetes.io/metadata.name} included). */
    public record Pod(Map<String, String> labels, String namespace, Map<String, String> namespaceLabels) {
        public static Pod in(String namespace, Map<String, String> labels) {
            return new Pod(labels, namespace, Map.of("kubernetes.io/metadata.name", namespace));
        }
    }

    private final List<NetworkPolicy> policies;
    private final String namespace;

    /** Policies as rendered, all in {@code namespace}. */
    public NetworkPolicies(List<NetworkPolicy> policies, String namespace) {
        this.policies = policies;
        this.namespace = namespace;
    }

    public boolean allows(Pod from, Pod to, int port) {
        return ingressAllows(from, to, port) && egressAllows(from, to, port);
    }

    private boolean ingressAllows(Pod from, Pod to, int port) {
        if (!to.namespace().equals(namespace)) {
            return true;
        }
        List<NetworkPolicy> selecting = selecting(to, "Ingress");
        return selecting.isEmpty() || selecting.stream().flatMap(p -> p.getSpec().getIngress().stream())
                .anyMatch(r -> portsMatch(r.getPorts(), port) && peersMatch(r.getFrom(), from));
    }

    private boolean egressAllows(Pod from, Pod to, int port) {
        if (!from.namespace().equals(namespace)) {
            return true;
        }
        List<NetworkPolicy> selecting = selecting(from, "Egress");
        return selecting.isEmpty() || selecting.stream().flatMap(p -> p.getSpec().getEgress().stream())
                .anyMatch(r -> portsMatch(r.getPorts(), port) && peersMatch(r.getTo(), to));
    }

    private List<NetworkPolicy> selecting(Pod pod, String type) {
        return policies.stream()
                .filter(p -> p.getSpec().getPolicyTypes().contains(type))
                .filter(p -> matches(p.getSpec().getPodSelector(), pod.labels()))
                .toList();
    }

    private static boolean portsMatch(List<NetworkPolicyPort> ports, int port) {
        if (ports == null || ports.isEmpty()) {
            return true;
        }
        for (NetworkPolicyPort p : ports) {
            IntOrString value = p.getPort();
            if (value == null) {
                return true;
            }
            if (value.getIntVal() == null) {
                throw new IllegalArgumentException("named port " + value.getStrVal() + " in a NetworkPolicy: use numbers");
            }
            int end = p.getEndPort() == null ? value.getIntVal() : p.getEndPort();
            if (port >= value.getIntVal() && port <= end) {
                return true;
            }
        }
        return false;
    }

    private boolean peersMatch(List<NetworkPolicyPeer> peers, Pod pod) {
        if (peers == null || peers.isEmpty()) {
            return true;
        }
        for (NetworkPolicyPeer peer : peers) {
            if (peer.getIpBlock() != null) {
                continue; // addresses outside the cluster: no pod matches
            }
            boolean nsOk = peer.getNamespaceSelector() == null
                    ? pod.namespace().equals(namespace)
                    : matches(peer.getNamespaceSelector(), pod.namespaceLabels());
            boolean podOk = peer.getPodSelector() == null || matches(peer.getPodSelector(), pod.labels());
            if (nsOk && podOk) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty()) {
            throw new IllegalArgumentException("matchExpressions are not modelled: " + selector);
        }
        Map<String, String> want = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
        return want.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
