package dev.gantry.e2e.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** k8s/ renders with kubectl kustomize, and what it renders is valid and follows Gantry's deployment rules. */
class KubernetesManifestsTest {

    static final List<String> GANTRY_WORKLOADS = List.of("scheduler-svc", "select-svc", "gang-svc", "node-agent");

    @ParameterizedTest(name = "{0} renders, and every object is a valid object of its kind")
    @ValueSource(strings = {"base", "overlays/dev", "overlays/prod", "overlays/prod-monitoring"})
    void everyOverlayRenders_intoValidObjectsOfTheirKinds(String overlay) throws Exception {
        Manifests m = Manifests.render(overlay);
        assertFalse(m.objects().isEmpty(), overlay + " renders nothing");
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < m.objects().size(); i++) {
            problems.addAll(ModelCheck.problems(m.documents().get(i), m.objects().get(i)));
        }
        assertEquals(List.of(), problems, overlay);
        for (HasMetadata o : m.objects()) {
            if (!o.getKind().equals("Namespace")) {
                assertEquals("gantry", o.getMetadata().getNamespace(), overlay + ": " + o.getKind() + "/" + o.getMetadata().getName());
            }
        }
    }

    @Test
    void modelCheck_catchesAMisspeltField_andAValueOfTheWrongType() throws Exception {
        Manifests m = Manifests.render("base");
        Service scheduler = m.get(Service.class, "scheduler-svc");
        var misspelt = m.document(scheduler).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) misspelt.path("spec")).put("selektor", "x");
        assertFalse(ModelCheck.problems(misspelt, Manifests.JSON.treeToValue(misspelt, Service.class)).isEmpty());
        var wrongType = m.document(scheduler).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) wrongType.path("spec").path("ports").get(0)).put("port", "6817");
        assertFalse(ModelCheck.problems(wrongType, Manifests.JSON.treeToValue(wrongType, Service.class)).isEmpty());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "overlays/dev, Namespace ServiceAccount ConfigMap Secret Service StatefulSet Deployment DaemonSet PodDisruptionBudget NetworkPolicy",
        "overlays/prod, Namespace ServiceAccount ConfigMap Service StatefulSet Deployment DaemonSet PodDisruptionBudget NetworkPolicy",
        "overlays/prod-monitoring, Namespace ServiceAccount ConfigMap Service StatefulSet Deployment DaemonSet PodDisruptionBudget NetworkPolicy ServiceMonitor",
    })
    void overlays_holdTheKindsTheyPromise(String overlay, String kinds) throws Exception {
        Manifests m = Manifests.render(overlay);
        Set<String> rendered = m.objects().stream().map(HasMetadata::getKind).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of(kinds.split(" "))), rendered, overlay);
        assertEquals(overlay.equals("overlays/dev"), m.find(io.fabric8.kubernetes.api.model.apps.StatefulSet.class, "postgres").isPresent(),
                "only dev runs PostgreSQL in the cluster");
    }

    @ParameterizedTest(name = "{0}: the signing key is never rendered; the database credentials only in dev")
    @ValueSource(strings = {"overlays/dev", "overlays/prod", "overlays/prod-monitoring"})
    void secrets_signingKeyIsNeverInTheManifests(String overlay) throws Exception {
        Manifests m = Manifests.render(overlay);
        List<String> secrets = m.all(Secret.class).stream().map(s -> s.getMetadata().getName()).toList();
        assertTrue(secrets.stream().noneMatch(s -> s.startsWith("gantry-cred")), secrets.toString());
        assertEquals(overlay.equals("overlays/dev"), secrets.stream().anyMatch(s -> s.startsWith("gantry-database")), secrets.toString());
    }

    @Test
    void leastPrivilege_noRbacAtAll_andNoServiceAccountToken() throws Exception {
        Manifests m = Manifests.render("overlays/prod-monitoring");
        assertTrue(m.objects().stream().noneMatch(o -> o.getKind().endsWith("Role") || o.getKind().endsWith("RoleBinding")),
                "no Gantry service calls the Kubernetes API");
        for (String w : GANTRY_WORKLOADS) {
            var spec = m.podTemplate(w).getSpec();
            assertEquals(w, spec.getServiceAccountName(), w);
            assertEquals(Boolean.FALSE, spec.getAutomountServiceAccountToken(), w);
            assertEquals(Boolean.FALSE, m.get(ServiceAccount.class, w).getAutomountServiceAccountToken(), w);
        }
    }

    @Test
    void containers_haveRequests_limitsExceptTheAgent_grpcProbes_andNoPrivilege() throws Exception {
        Manifests m = Manifests.render("overlays/dev");
        for (String w : GANTRY_WORKLOADS) {
            Container c = m.podTemplate(w).getSpec().getContainers().get(0);
            assertNotNull(c.getResources().getRequests().get("cpu"), w);
            assertNotNull(c.getResources().getRequests().get("memory"), w);
            // Jobs run inside the agent's container: a limit there would throttle or OOM-kill users' jobs.
            Map<String, ?> limits = c.getResources().getLimits() == null ? Map.of() : c.getResources().getLimits();
            assertEquals(!w.equals("node-agent"), limits.containsKey("memory") && limits.containsKey("cpu"), w + " limits " + limits);
            for (Probe p : List.of(c.getStartupProbe(), c.getReadinessProbe(), c.getLivenessProbe())) {
                assertNotNull(p, w + " probe");
                assertNotNull(p.getGrpc(), w + " probes gRPC health");
            }
            assertEquals("FallbackToLogsOnError", c.getTerminationMessagePolicy(), w);
            var sc = c.getSecurityContext();
            assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation(), w);
            assertTrue(sc.getPrivileged() == null || !sc.getPrivileged(), w);
            assertEquals(List.of("ALL"), sc.getCapabilities().getDrop(), w);
            assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem(), w);
        }
    }

    @Test
    void nodeAgent_runsOnLabelledNodes_withOnlyTheCapabilitiesJobControlNeeds() throws Exception {
        Manifests m = Manifests.render("overlays/prod");
        var spec = m.podTemplate("node-agent").getSpec();
        assertEquals(Map.of("gantry.dev/node", "true"), spec.getNodeSelector());
        Container c = spec.getContainers().get(0);
        assertEquals(List.of("SETUID", "SETGID", "KILL"), c.getSecurityContext().getCapabilities().getAdd());
        assertTrue(spec.getHostPID() == null || !spec.getHostPID(), "no host PID namespace");
        assertTrue(spec.getHostNetwork() == null || !spec.getHostNetwork(), "no host network");
        List<String> hostPaths = spec.getVolumes().stream().filter(v -> v.getHostPath() != null).map(v -> v.getHostPath().getPath()).toList();
        assertEquals(List.of("/sys/fs/cgroup"), hostPaths, "the cgroup tree is the only host path");
        for (String w : List.of("scheduler-svc", "select-svc", "gang-svc")) {
            var pod = m.podTemplate(w).getSpec();
            assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), w);
            assertTrue(pod.getContainers().get(0).getSecurityContext().getCapabilities().getAdd() == null
                    || pod.getContainers().get(0).getSecurityContext().getCapabilities().getAdd().isEmpty(), w);
        }
    }

    @Test
    void disruptionBudgets_coverEveryControlPlaneService_andNeverBlockADrainOfASingleton() throws Exception {
        Manifests m = Manifests.render("overlays/dev");
        for (String w : List.of("scheduler-svc", "select-svc", "gang-svc", "postgres")) {
            PodDisruptionBudget pdb = m.get(PodDisruptionBudget.class, w);
            assertEquals(m.podTemplate(w).getMetadata().getLabels().get("app.kubernetes.io/name"),
                    pdb.getSpec().getSelector().getMatchLabels().get("app.kubernetes.io/name"), w);
            int replicas = m.workloads().stream().filter(x -> x.name().equals(w)).findFirst().map(x -> replicas(m, x)).orElseThrow();
            if (pdb.getSpec().getMinAvailable() != null) {
                assertTrue(pdb.getSpec().getMinAvailable().getIntVal() < replicas, w + ": minAvailable must leave one pod evictable");
            }
        }
    }

    private static int replicas(Manifests m, Manifests.Workload w) {
        return switch (w.kind()) {
            case "Deployment" -> m.get(io.fabric8.kubernetes.api.model.apps.Deployment.class, w.name()).getSpec().getReplicas();
            case "StatefulSet" -> m.get(io.fabric8.kubernetes.api.model.apps.StatefulSet.class, w.name()).getSpec().getReplicas();
            default -> 1;
        };
    }

    @Test
    void servicesAndMonitors_selectTheirPods_andScrapePrometheusOnTheMetricsPort() throws Exception {
        Manifests m = Manifests.render("overlays/prod-monitoring");
        for (String w : GANTRY_WORKLOADS) {
            Service s = m.get(Service.class, w);
            Map<String, String> podLabels = m.podTemplate(w).getMetadata().getLabels();
            assertTrue(s.getSpec().getSelector().entrySet().stream().allMatch(e -> e.getValue().equals(podLabels.get(e.getKey()))), w);
            ServiceMonitor sm = m.get(ServiceMonitor.class, w);
            assertTrue(sm.getSpec().getSelector().getMatchLabels().entrySet().stream()
                    .allMatch(e -> e.getValue().equals(s.getMetadata().getLabels().get(e.getKey()))), w + ": monitor selects the Service");
            var ep = sm.getSpec().getEndpoints().get(0);
            assertEquals("/prometheus", ep.getPath(), w);
            assertTrue(s.getSpec().getPorts().stream().anyMatch(p -> p.getName().equals(ep.getPort())), w + ": Service has port " + ep.getPort());
        }
    }

    @ParameterizedTest(name = "{0} -> {1}:{2} allowed={3}")
    @CsvSource({
        // The architecture's flows: the services' own calls on the internal (mutual TLS) ports 6827-6830.
        "select-svc, scheduler-svc, 6827, true",
        "gang-svc, scheduler-svc, 6827, true",
        "node-agent, scheduler-svc, 6827, true",
        "scheduler-svc, select-svc, 6828, true",
        "scheduler-svc, node-agent, 6830, true",
        "node-agent, node-agent, 6830, true",
        "node-agent, node-agent, 40000, true",
        // The client API: users' pods, and the commands jobs run (srun's steps, sbatch) from the agents' pods.
        "client@users, scheduler-svc, 6817, true",
        "node-agent, scheduler-svc, 6817, true",
        "prometheus@monitoring, scheduler-svc, 8081, true",
        "prometheus@monitoring, select-svc, 8082, true",
        "prometheus@monitoring, gang-svc, 8083, true",
        "prometheus@monitoring, node-agent, 8084, true",
        "scheduler-svc, postgres, 5432, true",
        // Everything else: no user reaches an internal port, and no service a port it does not call.
        "client@users, scheduler-svc, 6827, false",
        "client@users, select-svc, 6828, false",
        "client@users, gang-svc, 6829, false",
        "client@users, node-agent, 6830, false",
        "client@users, node-agent, 6820, false",
        "client@users, select-svc, 6818, false",
        "select-svc, scheduler-svc, 6817, false",
        "gang-svc, scheduler-svc, 6817, false",
        "scheduler-svc, select-svc, 6818, false",
        "scheduler-svc, gang-svc, 6829, false",
        "scheduler-svc, node-agent, 6820, false",
        "select-svc, node-agent, 6830, false",
        "gang-svc, node-agent, 6830, false",
        "gang-svc, select-svc, 6828, false",
        "node-agent, select-svc, 6828, false",
        "node-agent, postgres, 5432, false",
        "select-svc, postgres, 5432, false",
        "stranger@users, scheduler-svc, 6817, false",
        "stranger@users, scheduler-svc, 6827, false",
        "prometheus@monitoring, scheduler-svc, 6817, false",
        "scheduler-svc, node-agent, 22, false",
    })
    void networkPolicies_allowTheArchitecturesFlowsOnly(String from, String to, int port, boolean allowed) throws Exception {
        Manifests m = Manifests.render("overlays/dev");
        NetworkPolicies policies = new NetworkPolicies(m.all(NetworkPolicy.class), "gantry");
        assertEquals(allowed, policies.allows(pod(m, from), pod(m, to), port));
    }

    /** "name" is a Gantry pod; "client@ns", "prometheus@ns" and "stranger@ns" are pods elsewhere. */
    private static NetworkPolicies.Pod pod(Manifests m, String spec) {
        if (!spec.contains("@")) {
            return NetworkPolicies.Pod.in("gantry", m.podTemplate(spec).getMetadata().getLabels());
        }
        String[] parts = spec.split("@");
        Map<String, String> labels = parts[0].equals("client") ? Map.of("gantry.dev/client", "true") : Map.of("app", parts[0]);
        return NetworkPolicies.Pod.in(parts[1], labels);
    }
}
