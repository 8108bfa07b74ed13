package dev.gantry.e2e.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * One overlay of k8s/ rendered by {@code kubectl kustomize}: the documents as JSON trees, and each as the fabric8
 * model class of its kind. Kinds outside {@link #KINDS} are not expected in Gantry's manifests and fail.
 */
public record Manifests(String overlay, List<JsonNode> documents, List<HasMetadata> objects) {

    /** Every kind Gantry's manifests may contain, with the model class that describes it. */
    public static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "Namespace", Namespace.class,
            "ServiceAccount", ServiceAccount.class,
            "ConfigMap", ConfigMap.class,
            "Secret", Secret.class,
            "Service", Service.class,
            "Deployment", Deployment.class,
            "StatefulSet", StatefulSet.class,
            "DaemonSet", DaemonSet.class,
            "PodDisruptionBudget", PodDisruptionBudget.class,
            "NetworkPolicy", NetworkPolicy.class);

    /** Optional-component kinds (CRDs), checked the same way. */
    public static final Map<String, Class<? extends HasMetadata>> CUSTOM_KINDS = Map.of("ServiceMonitor", ServiceMonitor.class);

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());

    public static Path home() {
        return Path.of(System.getProperty("gantry.home", "..")).toAbsolutePath().normalize();
    }

    /** Whether an executable named {@code program} is in a directory of the PATH. */
    static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && java.nio.file.Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Renders k8s/{@code overlay} (e.g. "overlays/dev"); fails with kubectl's message when it does not render. Skips the
     * test (a JUnit assumption) where kubectl is not on the PATH: a host prerequisite (README, "Tests").
     */
    public static Manifests render(String overlay) throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("kubectl"), "kubectl is not installed (README, \"Tests\": host prerequisites)");
        Path dir = home().resolve("k8s").resolve(overlay);
        Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("kubectl kustomize " + dir + " did not finish");
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + p.exitValue() + "):\n" + err);
        }
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(out)) {
            for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        }
        List<HasMetadata> objects = new ArrayList<>();
        for (JsonNode doc : docs) {
            objects.add(JSON.treeToValue(doc, modelClass(doc)));
        }
        return new Manifests(overlay, List.copyOf(docs), List.copyOf(objects));
    }

    static Class<? extends HasMetadata> modelClass(JsonNode doc) {
        String kind = doc.path("kind").asText();
        Class<? extends HasMetadata> c = KINDS.getOrDefault(kind, CUSTOM_KINDS.get(kind));
        if (c == null) {
            throw new AssertionError("unexpected kind '" + kind + "' in " + doc.path("metadata").path("name").asText());
        }
        return c;
    }

    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
    }

    public <T extends HasMetadata> T get(Class<T> type, String name) {
        return find(type, name).orElseThrow(() -> new AssertionError(overlay + ": no " + type.getSimpleName() + " " + name));
    }

    /** The pod template of a workload (Deployment, StatefulSet or DaemonSet) named {@code name}. */
    public PodTemplateSpec podTemplate(String name) {
        return workloads().stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(overlay + ": no workload " + name)).template();
    }

    /** A workload and its pod template. */
    public record Workload(String kind, String name, PodTemplateSpec template, Map<String, String> selector) {}

    public List<Workload> workloads() {
        List<Workload> out = new ArrayList<>();
        all(Deployment.class).forEach(d -> out.add(new Workload("Deployment", d.getMetadata().getName(), d.getSpec().getTemplate(),
                d.getSpec().getSelector().getMatchLabels())));
        all(StatefulSet.class).forEach(d -> out.add(new Workload("StatefulSet", d.getMetadata().getName(), d.getSpec().getTemplate(),
                d.getSpec().getSelector().getMatchLabels())));
        all(DaemonSet.class).forEach(d -> out.add(new Workload("DaemonSet", d.getMetadata().getName(), d.getSpec().getTemplate(),
                d.getSpec().getSelector().getMatchLabels())));
        return out;
    }

    /** The document of {@code o}, as rendered. */
    public ObjectNode document(HasMetadata o) {
        return (ObjectNode) documents.get(objects.indexOf(o));
    }
}
