package dev.gantry.e2e.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboards are well-formed, ship in the dashboards component unchanged, and name only metrics that
 * docs/metrics.md lists (PrometheusDashboardsE2ETest then checks each query returns data from real services).
 */
class DashboardsTest {

    private static final Pattern METRIC = Pattern.compile("\\b(gantry_[a-z_]+|grpc_server_[a-z_]+|jvm_[a-z_]+|process_[a-z_]+)\\b");

    private static List<Path> dashboards() throws Exception {
        try (Stream<Path> s = Files.list(Manifests.home().resolve("k8s/components/dashboards"))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    @Test
    void fourDashboards_withUniqueUids_aPrometheusDatasourceVariable_andAQueryInEveryPanel() throws Exception {
        List<Path> files = dashboards();
        assertEquals(4, files.size(), files.toString());
        Set<String> uids = new HashSet<>();
        for (Path f : files) {
            JsonNode d = Manifests.JSON.readTree(f.toFile());
            assertTrue(uids.add(d.path("uid").asText()), f + ": uid " + d.path("uid").asText() + " is unique");
            assertTrue(d.path("title").asText().startsWith("Gantry / "), f.toString());
            JsonNode ds = d.path("templating").path("list").get(0);
            assertEquals("datasource", ds.path("type").asText(), f + ": first variable picks the Prometheus data source");
            assertEquals("prometheus", ds.path("query").asText());
            assertFalse(d.path("panels").isEmpty(), f.toString());
            for (JsonNode panel : d.path("panels")) {
                String where = f.getFileName() + " / " + panel.path("title").asText();
                assertEquals("${datasource}", panel.path("datasource").path("uid").asText(), where);
                assertFalse(panel.path("targets").isEmpty(), where + " has a query");
                panel.path("targets").forEach(t -> assertFalse(t.path("expr").asText().isBlank(), where));
            }
        }
    }

    @Test
    void everyMetricAQueryUses_isListedInDocsMetrics() throws Exception {
        String doc = Files.readString(Manifests.home().resolve("docs/metrics.md"));
        List<String> missing = new ArrayList<>();
        for (Path f : dashboards()) {
            for (JsonNode panel : Manifests.JSON.readTree(f.toFile()).path("panels")) {
                for (JsonNode t : panel.path("targets")) {
                    METRIC.matcher(t.path("expr").asText()).results()
                            .map(m -> m.group(1).replaceAll("_(bucket|count|sum|max)$", ""))
                            .filter(m -> !doc.contains(m))
                            .forEach(m -> missing.add(f.getFileName() + ": " + m));
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void theDashboardsComponent_shipsEveryDashboardUnchanged_forGrafanasSidecar() throws Exception {
        Manifests m = Manifests.render("overlays/prod-monitoring");
        ConfigMap cm = m.get(ConfigMap.class, "gantry-dashboards");
        assertEquals("1", cm.getMetadata().getLabels().get("grafana_dashboard"));
        List<Path> files = dashboards();
        assertEquals(files.size(), cm.getData().size());
        for (Path f : files) {
            assertEquals(Manifests.JSON.readTree(f.toFile()), Manifests.JSON.readTree(cm.getData().get(f.getFileName().toString())), f.toString());
        }
    }
}
