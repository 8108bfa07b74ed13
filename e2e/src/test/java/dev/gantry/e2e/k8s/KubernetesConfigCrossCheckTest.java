package dev.gantry.e2e.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The manifests and the services' own configuration agree: the variables the manifests set are ones the services
 * read, ports and probes are the ports the services listen on, addresses name Services that serve them (and the
 * network policies let the call through), and the files the services read are mounted where the variables say.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubernetesConfigCrossCheckTest {

    private Manifests prod;
    private Manifests dev;

    @BeforeAll
    void render() throws Exception {
        prod = Manifests.render("overlays/prod-monitoring");
        dev = Manifests.render("overlays/dev");
    }

    private static Container container(Manifests m, String workload) {
        return m.podTemplate(workload).getSpec().getContainers().get(0);
    }

    private static Map<String, EnvVar> env(Container c) {
        return c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
    }

    private static String value(Container c, String name) {
        EnvVar v = env(c).get(name);
        assertNotNull(v, c.getName() + " sets " + name);
        assertNotNull(v.getValue(), c.getName() + ": " + name + " has a literal value");
        return v.getValue();
    }

    private static int containerPort(Container c, String name) {
        return c.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort).findFirst()
                .orElseThrow(() -> new AssertionError(c.getName() + " has no port named " + name));
    }

    @ParameterizedTest(name = "{0}: every GANTRY_* variable it is given is one it reads")
    @ValueSource(strings = {"scheduler-svc", "select-svc", "gang-svc", "node-agent"})
    void environmentNames_areOnesTheServiceReads(String workload) {
        ServiceSettings settings = ServiceSettings.of(workload);
        for (String manifest : List.of("overlays/prod-monitoring", "overlays/dev")) {
            Container c = container(manifest.equals("overlays/dev") ? dev : prod, workload);
            for (EnvVar e : c.getEnv()) {
                if (e.getName().startsWith("GANTRY_")) {
                    assertTrue(settings.environment().contains(e.getName()),
                            manifest + ": " + workload + " is given " + e.getName() + " but reads only " + settings.environment());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}: ports, probes and bind address match application.yml")
    @ValueSource(strings = {"scheduler-svc", "select-svc", "gang-svc", "node-agent"})
    void portsAndProbes_matchTheServiceConfiguration(String workload) {
        ServiceSettings settings = ServiceSettings.of(workload);
        Container c = container(prod, workload);
        int grpc = Integer.parseInt(value(c, settings.grpcPort().name()));
        int http = Integer.parseInt(value(c, settings.httpPort().name()));
        assertEquals(Integer.parseInt(settings.grpcPort().defaultValue()), grpc, "the service's default gRPC port, as documented");
        assertEquals(Integer.parseInt(settings.httpPort().defaultValue()), http, "the service's default HTTP port");
        int internal = Integer.parseInt(value(c, settings.internalPort().name()));
        assertEquals(Integer.parseInt(settings.internalPort().defaultValue()), internal, "the service's default internal port");
        assertEquals(grpc, containerPort(c, "grpc"));
        assertEquals(http, containerPort(c, "http-metrics"));
        assertEquals(internal, containerPort(c, "internal"));
        for (Probe p : List.of(c.getStartupProbe(), c.getReadinessProbe(), c.getLivenessProbe())) {
            assertEquals(grpc, p.getGrpc().getPort(), workload + " probes the gRPC port");
        }
        assertTrue(c.getReadinessProbe().getGrpc().getService() == null || c.getReadinessProbe().getGrpc().getService().isEmpty(),
                "ready: the overall health (service \"\"), which Micronaut's health service reports (a standby controller: NOT_SERVING)");
        for (Probe p : List.of(c.getStartupProbe(), c.getLivenessProbe())) {
            String service = p.getGrpc().getService() == null ? "" : p.getGrpc().getService();
            // scheduler-svc's standby is live but not ready: its start-up and liveness ask for the process's health
            assertEquals(workload.equals("scheduler-svc") ? "gantry.process" : "", service, workload + " start-up and liveness");
        }
        assertEquals("0.0.0.0", value(c, settings.bindHost().name()), "the kubelet and other pods must reach it");
        assertTrue(settings.prometheusServed(), workload + " serves /prometheus without authentication");
        Service svc = prod.get(Service.class, workload);
        assertEquals(http, targetPort(svc, "http-metrics", c));
        assertEquals(grpc, targetPort(svc, "grpc", c));
        assertEquals(internal, targetPort(svc, "internal", c));
    }

    private static int targetPort(Service svc, String portName, Container target) {
        ServicePort sp = svc.getSpec().getPorts().stream().filter(p -> portName.equals(p.getName())).findFirst()
                .orElseThrow(() -> new AssertionError(svc.getMetadata().getName() + " has no port " + portName));
        var tp = sp.getTargetPort();
        return tp.getIntVal() != null ? tp.getIntVal() : containerPort(target, tp.getStrVal());
    }

    @ParameterizedTest(name = "{0} reaches {2}'s internal port through {1}")
    @CsvSource({
        "scheduler-svc, GANTRY_SELECT_ADDRESS, select-svc",
        "select-svc, GANTRY_SCHEDULER_ADDRESS, scheduler-svc",
        "gang-svc, GANTRY_SCHEDULER_ADDRESS, scheduler-svc",
        "node-agent, GANTRY_SCHEDULER_ADDRESS, scheduler-svc",
    })
    void addresses_nameAServiceThatServesTheTargetsInternalPort_andPoliciesAllowTheCall(String from, String variable, String to) {
        for (Manifests m : List.of(prod, dev)) {
            String address = value(container(m, from), variable);
            String host = address.substring(0, address.lastIndexOf(':'));
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            Service svc = m.get(Service.class, host);
            Map<String, String> targetLabels = m.podTemplate(to).getMetadata().getLabels();
            assertTrue(svc.getSpec().getSelector().entrySet().stream().allMatch(e -> e.getValue().equals(targetLabels.get(e.getKey()))),
                    address + " selects " + to + "'s pods");
            ServicePort sp = svc.getSpec().getPorts().stream().filter(p -> p.getPort() == port).findFirst()
                    .orElseThrow(() -> new AssertionError(host + " has no port " + port));
            Container target = container(m, to);
            int containerPort = sp.getTargetPort().getIntVal() != null ? sp.getTargetPort().getIntVal()
                    : containerPort(target, sp.getTargetPort().getStrVal());
            assertEquals(containerPort(target, "internal"), containerPort, address + " reaches " + to + "'s internal (mutual TLS) port");
            NetworkPolicies policies = new NetworkPolicies(m.all(NetworkPolicy.class), "gantry");
            assertTrue(policies.allows(NetworkPolicies.Pod.in("gantry", m.podTemplate(from).getMetadata().getLabels()),
                    NetworkPolicies.Pod.in("gantry", targetLabels), containerPort), from + " -> " + to + " is allowed");
        }
    }

    @ParameterizedTest(name = "the agent advertises its pod IP: NodeAgent on its internal port, StepAgent on its gRPC port")
    @ValueSource(strings = "node-agent")
    void agentAdvertisesItsPodAddress(String workload) {
        Container c = container(prod, workload);
        assertEquals("$(POD_IP):" + containerPort(c, "internal"), value(c, "GANTRY_AGENT_ADVERTISE_ADDRESS"));
        assertEquals("$(POD_IP):" + containerPort(c, "grpc"), value(c, "GANTRY_AGENT_STEP_ADDRESS"));
        assertEquals("status.podIP", env(c).get("POD_IP").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("spec.nodeName", env(c).get("GANTRY_NODE_NAME").getValueFrom().getFieldRef().getFieldPath(),
                "the agent registers under its Kubernetes node's name, which the config's NodeName lines use");
    }

    @ParameterizedTest(name = "{0}: {1} is a file mounted from {2} {3}")
    @CsvSource({
        "scheduler-svc, GANTRY_CONFIG, configMap, gantry-config",
        "scheduler-svc, GANTRY_CRED_PRIVATE_KEY, secret, gantry-cred",
        "scheduler-svc, GANTRY_CRED_PUBLIC_KEY, secret, gantry-cred",
        "node-agent, GANTRY_CRED_PUBLIC_KEY, secret, gantry-cred",
        "scheduler-svc, GANTRY_TLS_CA, secret, gantry-tls",
        "scheduler-svc, GANTRY_TLS_CERT, secret, gantry-tls",
        "scheduler-svc, GANTRY_TLS_KEY, secret, gantry-tls",
        "select-svc, GANTRY_TLS_CA, secret, gantry-tls",
        "select-svc, GANTRY_TLS_CERT, secret, gantry-tls",
        "select-svc, GANTRY_TLS_KEY, secret, gantry-tls",
        "gang-svc, GANTRY_TLS_CA, secret, gantry-tls",
        "gang-svc, GANTRY_TLS_CERT, secret, gantry-tls",
        "gang-svc, GANTRY_TLS_KEY, secret, gantry-tls",
        "node-agent, GANTRY_TLS_CA, secret, gantry-tls-nodes",
        "node-agent, GANTRY_TLS_CERT, secret, gantry-tls-nodes",
        "node-agent, GANTRY_TLS_KEY, secret, gantry-tls-nodes",
    })
    void filesTheServicesRead_areMountedWhereTheVariablesSay(String workload, String variable, String source, String name) {
        PodSpec pod = prod.podTemplate(workload).getSpec();
        Container c = pod.getContainers().get(0);
        String path = value(c, variable);
        VolumeMount mount = c.getVolumeMounts().stream().filter(v -> path.startsWith(v.getMountPath() + "/")).findFirst()
                .orElseThrow(() -> new AssertionError(variable + "=" + path + " is under no volume mount"));
        String file = path.substring(mount.getMountPath().length() + 1);
        Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
        if (source.equals("configMap")) {
            assertNotNull(volume.getConfigMap(), variable + " comes from a ConfigMap");
            ConfigMap cm = prod.get(ConfigMap.class, volume.getConfigMap().getName());
            assertTrue(cm.getData().containsKey(file), cm.getMetadata().getName() + " holds " + file);
        } else {
            assertNotNull(volume.getSecret(), variable + " comes from a Secret");
            assertEquals(name, volume.getSecret().getSecretName());
            if (volume.getSecret().getItems() == null || volume.getSecret().getItems().isEmpty()) {
                // the whole Secret: the agent's files are named after its node (KubernetesConfigFilesTest issues them)
                assertTrue(file.matches("ca\\.crt|\\$\\(GANTRY_NODE_NAME\\)\\.(crt|key)"), variable + "=" + path);
            } else {
                assertTrue(volume.getSecret().getItems().stream().anyMatch(i -> i.getPath().equals(file)), "the Secret volume projects " + file);
            }
            if (variable.endsWith("_KEY") && !variable.endsWith("PUBLIC_KEY")) {
                // private keys are never readable by others: the service's group (fsGroup) at most
                int mode = volume.getSecret().getDefaultMode();
                assertEquals(0, mode & 0007, variable + ": mode " + Integer.toOctalString(mode));
            }
        }
    }

    @ParameterizedTest(name = "{0} is given everything it needs to start")
    @CsvSource({
        "scheduler-svc, GANTRY_CONFIG GANTRY_DATABASE_URL GANTRY_DATABASE_USER GANTRY_DATABASE_PASSWORD GANTRY_CRED_PRIVATE_KEY GANTRY_CRED_PUBLIC_KEY GANTRY_SELECT_ADDRESS GANTRY_TLS_CA GANTRY_TLS_CERT GANTRY_TLS_KEY",
        "select-svc, GANTRY_SCHEDULER_ADDRESS GANTRY_TLS_CA GANTRY_TLS_CERT GANTRY_TLS_KEY",
        "gang-svc, GANTRY_SCHEDULER_ADDRESS GANTRY_TLS_CA GANTRY_TLS_CERT GANTRY_TLS_KEY",
        "node-agent, GANTRY_NODE_NAME GANTRY_CRED_PUBLIC_KEY GANTRY_SCHEDULER_ADDRESS GANTRY_AGENT_ADVERTISE_ADDRESS GANTRY_TLS_CA GANTRY_TLS_CERT GANTRY_TLS_KEY",
    })
    void requiredSettings_arePresent(String workload, String names) {
        for (Manifests m : List.of(prod, dev)) {
            Map<String, EnvVar> env = env(container(m, workload));
            for (String name : names.split(" ")) {
                Optional<EnvVar> v = Optional.ofNullable(env.get(name));
                assertTrue(v.isPresent() && (v.get().getValue() != null || v.get().getValueFrom() != null), m.overlay() + ": " + workload + " needs " + name);
            }
        }
    }
}
