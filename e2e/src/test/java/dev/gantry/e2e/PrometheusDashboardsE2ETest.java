package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's Prometheus scrapes every service of a running local
 * cluster; a short workload runs (jobs that fill the cluster, jobs that wait for resources, the first cancelled while
 * running); then every query of every Grafana dashboard under k8s/components/dashboards is evaluated through
 * Prometheus' HTTP API over the workload's time range and must return data. The services are also probed exactly as the kubelet's gRPC
 * probes in k8s/ do (grpc.health.v1 Check, service "").
 *
 * The workload also has a job the backfill pass starts ahead of a blocked one, and two jobs gang scheduling
 * time-slices on a shared node, and a higher-tier job that preempts (requeues) a lower-tier one that ignores SIGTERM
 * (a grace-time kill), beside one it may not take (PreemptExemptTime: an exempt refusal).
 *
 * A host prerequisite (README, "Tests"): the test is skipped where prometheus is not installed and cannot be, i.e.
 * unless it runs as root, for whom bin/gantry-prometheus installs Debian's package (kept so that CI, whose image lacks
 * Prometheus, still runs this test).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// installs a Debian package when missing (munge, prometheus): one apt-get at a time (the e2e classes run two at once)
@org.junit.jupiter.api.parallel.ResourceLock("apt-get")
class PrometheusDashboardsE2ETest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Pattern SUBMITTED = Pattern.compile("^Submitted batch job (\\d+)$", Pattern.MULTILINE);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path tmp;
    private Path home;
    private Path runDir;
    private Shell shell;
    private String prometheus;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Instant workloadStart;

    @BeforeAll
    void up(@TempDir Path tempDir) throws Exception {
        boolean installed = Stream.concat(Stream.of("/usr/bin"), Stream.of(System.getenv().getOrDefault("PATH", "").split(":")))
                .filter(d -> !d.isEmpty()).anyMatch(d -> Files.isExecutable(Path.of(d, "prometheus")));
        assumeTrue(installed || "root".equals(System.getProperty("user.name")),
                "prometheus is not installed, and only root may install it (README, \"Tests\": host prerequisites)");
        tmp = tempDir;
        home = Path.of(System.getProperty("gantry.home", "..")).toAbsolutePath().normalize();
        runDir = tmp.resolve("run");
        Path conf = tmp.resolve("metrics.conf");
        Files.writeString(conf, """
                ClusterName=metrics
                KillWait=2
                PreemptType=preempt/partition_prio
                PreemptMode=REQUEUE,GANG
                SchedulerTimeSlice=1
                SchedulerParameters=bf_interval=1,bf_resolution=1
                NodeName=n[1-4] CPUs=2 RealMemory=2048
                NodeName=b1 CPUs=2 RealMemory=2048
                NodeName=s1 CPUs=2 RealMemory=2048
                GresTypes=gpu
                NodeName=u1 CPUs=2 RealMemory=1024 Gres=gpu:2
                QOS=keep PreemptExemptTime=60
                PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
                PartitionName=bf Nodes=b1 MaxTime=60 State=UP
                PartitionName=shared Nodes=s1 MaxTime=60 State=UP OverSubscribe=FORCE:2
                PartitionName=lowu Nodes=u1 MaxTime=60 State=UP GraceTime=2
                PartitionName=urgent Nodes=u1 MaxTime=60 State=UP PriorityTier=10
                """);
        shell = new Shell(home, Map.of("GANTRY_RUN_DIR", runDir.toString(), "GANTRY_CONTROLLER", ""));
        Shell.Result up = shell.run(tmp, "gantry", "up", "--config", conf.toString(), "--run-dir", runDir.toString());
        assertEquals(0, up.exit(), up.toString());
        Shell.Result prom = shell.run(tmp, "gantry-prometheus", "start", "--run-dir", runDir.toString(),
                "--port", Integer.toString(freePort()), "--interval", "1s");
        assertEquals(0, prom.exit(), prom.toString());
        prometheus = prom.out().trim();
    }

    @AfterAll
    void down() throws Exception {
        if (shell == null) {
            return;
        }
        Shell.Result stop = shell.run(tmp, "gantry-prometheus", "stop", "--run-dir", runDir.toString());
        Shell.Result down = shell.run(tmp, "gantry", "down", "--run-dir", runDir.toString());
        assertEquals(0, stop.exit(), stop.toString());
        assertEquals(0, down.exit(), down.toString());
    }

    @Test
    @Order(1)
    void everyService_answersTheKubeletsGrpcProbe() throws Exception {
        Properties p = clusterProperties();
        List<String> services = List.of(p.getProperty("services").split(","));
        assertTrue(services.size() >= 4, services.toString());
        for (String s : services) {
            ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(p.getProperty(s + ".grpc")))
                    .usePlaintext().build();
            try {
                HealthCheckResponse r = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                        .check(HealthCheckRequest.newBuilder().setService("").build());
                assertEquals(HealthCheckResponse.ServingStatus.SERVING, r.getStatus(), s);
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    @Order(2)
    void prometheusScrapesEveryService() throws Exception {
        int expected = clusterProperties().getProperty("services").split(",").length;
        awaitTrue(() -> {
            JsonNode targets = get("/api/v1/targets").path("data").path("activeTargets");
            long up = 0;
            for (JsonNode t : targets) {
                up += t.path("health").asText().equals("up") ? 1 : 0;
            }
            return targets.size() == expected && up == expected;
        }, "Prometheus scrapes all " + expected + " services");
    }

    @Test
    @Order(3)
    void everyDashboardPanel_returnsDataAfterAShortWorkload() throws Exception {
        workloadStart = Instant.now().minusSeconds(5);
        Path work = Files.createDirectories(tmp.resolve("work"));
        // 4 nodes x 2 CPUs. Four 2-CPU holders fill the cluster, so four more 2-CPU jobs must wait (Resources, then
        // Priority) whatever the speed of the machine; once Prometheus has seen them pending, the holders are
        // cancelled while running (signals, cancelled jobs) and the waiting jobs run to completion.
        List<Long> holders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            holders.add(submit(work, "-c", "2", "-o", "/dev/null", "--wrap", "sleep 300"));
        }
        List<Long> waiting = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waiting.add(submit(work, "-c", "2", "-o", "/dev/null", "--wrap", "sleep 1"));
        }
        // Backfill: on b1 a 10-minute job holds one CPU, a 2-CPU job waits for it (reservation), and a 1-minute
        // 1-CPU job submitted after it starts at once on the free CPU without delaying the reservation.
        long bfHolder = submit(work, "-p", "bf", "-c", "1", "-t", "10", "-o", "/dev/null", "--wrap", "sleep 300");
        long bfWide = submit(work, "-p", "bf", "-c", "2", "-t", "5", "-o", "/dev/null", "--wrap", "true");
        submit(work, "-p", "bf", "-c", "1", "-t", "1", "-o", "/dev/null", "--wrap", "sleep 2");
        // Gang scheduling: two 2-CPU jobs share s1 (OverSubscribe=FORCE:2) and take turns every second.
        List<Long> sharing = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            sharing.add(submit(work, "-p", "shared", "-c", "2", "-o", "/dev/null", "--wrap", "sleep 300"));
        }
        awaitTrue(() -> scalar("sum(gantry_jobs_pending)") >= 1 && scalar("sum(gantry_agent_jobs{state=\"running\"})") >= 4,
                "Prometheus sees the holders running and jobs pending");
        // Preemption: a job of the higher-tier partition on u1 requeues the lower-tier job running there, which ignores
        // SIGTERM, so the kill sequence ends it when its GraceTime (2 s) runs out (a grace-time kill). The other job on
        // u1 runs in QOS keep (PreemptExemptTime=60 minutes): the preemptor may not take it (an exempt refusal).
        long keepJob = submit(work, "-p", "lowu", "-q", "keep", "-o", "/dev/null", "--wrap", "sleep 300");
        long lowJob = submit(work, "-p", "lowu", "-o", "/dev/null", "--wrap", "trap '' TERM; sleep 300");
        awaitTrue(() -> shell.run(work, "squeue", "-h", "-j", keepJob + "," + lowJob, "-o", "%T").out().trim()
                        .equals("RUNNING\nRUNNING"), "the low-tier jobs run");
        submit(work, "-p", "urgent", "-o", "/dev/null", "--wrap", "sleep 1");
        awaitTrue(() -> scalar("sum(gantry_backfill_started_total)") >= 1 && scalar("sum(gantry_gang_swaps_total)") >= 3
                        && scalar("sum(gantry_preemptions_total)") >= 1
                        && scalar("sum(gantry_preemption_grace_kills_total)") >= 1
                        && scalar("sum(gantry_preemption_exempt_total)") >= 1
                        && scalar("sum(gantry_gang_suspended_seconds_count)") >= 1,
                "Prometheus has seen a backfilled start, gang swaps, a preemption with a grace-time kill and an exempt refusal");
        // One scancel for all of them: cancelled one by one, the pending 2-CPU job could start (and finish) in the
        // moment between its blocker's cancel and its own.
        Shell.Result cancelAll = shell.run(work, "scancel", Long.toString(bfWide), Long.toString(bfHolder),
                Long.toString(lowJob), Long.toString(keepJob), Long.toString(sharing.get(0)), Long.toString(sharing.get(1)));
        assertEquals(0, cancelAll.exit(), cancelAll.toString());
        for (long id : holders) {
            Shell.Result cancel = shell.run(work, "scancel", Long.toString(id));
            assertEquals(0, cancel.exit(), cancel.toString());
        }
        awaitTrue(() -> scalar("sum(gantry_jobs{state=\"completed\"})") >= waiting.size()
                        && scalar("sum(gantry_agent_kills_total)") >= 1
                        && scalar("sum(gantry_jobs_ended_total{state=\"cancelled\"})") >= holders.size(),
                "Prometheus has seen the workload finish");

        // Every panel's query, with where it comes from.
        Map<String, String> queries = new java.util.LinkedHashMap<>();
        for (Path dashboard : dashboards()) {
            JsonNode d = JSON.readTree(dashboard.toFile());
            for (JsonNode panel : d.path("panels")) {
                assertFalse(panel.path("targets").isEmpty(), dashboard.getFileName() + ": " + panel.path("title").asText() + " has no query");
                for (JsonNode target : panel.path("targets")) {
                    queries.put(target.path("expr").asText(), dashboard.getFileName() + " / " + panel.path("title").asText());
                }
            }
        }
        // A series that appeared late in the workload (a counter registered at its first event) needs a few more
        // scrapes before a rate over it has two samples: wait for each query's data, do not sleep a fixed time.
        List<String> empty = new ArrayList<>(queries.keySet());
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        while (!empty.isEmpty() && Instant.now().isBefore(deadline)) {
            List<String> still = new ArrayList<>();
            for (String expr : empty) {
                if (!hasData(expr)) {
                    still.add(expr);
                }
            }
            empty = still;
            if (!empty.isEmpty()) {
                Thread.sleep(1000);
            }
        }
        List<String> report = empty.stream().map(e -> queries.get(e) + ": " + e).toList();
        assertTrue(queries.size() >= 20, "the dashboards hold " + queries.size() + " queries");
        assertEquals(List.of(), report, "dashboard queries that returned no data");
    }

    @Test
    @Order(4)
    void everyGantryMetricTheServicesExport_isListedInDocsMetrics() throws Exception {
        String doc = Files.readString(home.resolve("docs/metrics.md"));
        List<String> undocumented = new ArrayList<>();
        for (JsonNode name : get("/api/v1/label/__name__/values").path("data")) {
            String family = name.asText().replaceAll("_(bucket|count|sum|max)$", "");
            if (family.startsWith("gantry_") && !doc.contains("`" + family + "`") && !undocumented.contains(family)) {
                undocumented.add(family);
            }
        }
        assertEquals(List.of(), undocumented, "exported but missing from docs/metrics.md");
    }

    // ------------------------------------------------------------------ helpers

    private List<Path> dashboards() throws IOException {
        try (Stream<Path> s = Files.list(home.resolve("k8s/components/dashboards"))) {
            List<Path> all = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            assertEquals(4, all.size(), all.toString());
            return all;
        }
    }

    /** Grafana's variables as the dashboards use them: all partitions, and a rate window of a few scrapes. */
    private static String substitute(String expr) {
        return expr.replace("$__rate_interval", "15s").replace("$partition", ".*");
    }

    /** Whether the query has at least one finite sample between the workload's start and now. */
    private boolean hasData(String expr) throws Exception {
        String q = "/api/v1/query_range?query=" + URLEncoder.encode(substitute(expr), StandardCharsets.UTF_8)
                + "&start=" + workloadStart.getEpochSecond() + "&end=" + Instant.now().getEpochSecond() + "&step=1";
        JsonNode r = get(q);
        assertEquals("success", r.path("status").asText(), expr + ": " + r);
        for (JsonNode series : r.path("data").path("result")) {
            for (JsonNode v : series.path("values")) {
                double value = Double.parseDouble(v.get(1).asText());
                if (!Double.isNaN(value) && !Double.isInfinite(value)) {
                    return true;
                }
            }
        }
        return false;
    }

    private double scalar(String expr) throws Exception {
        JsonNode result = get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)).path("data").path("result");
        return result.isEmpty() ? 0 : Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    private JsonNode get(String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(prometheus + pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), pathAndQuery + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private long submit(Path cwd, String... args) throws Exception {
        Shell.Result r = shell.run(cwd, "sbatch", args);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = SUBMITTED.matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    interface Check {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Check check, String what) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (Exception | AssertionError e) {
                last = e instanceof Exception ex ? ex : new Exception(e);
            }
            Thread.sleep(250);
        }
        fail("timed out waiting until " + what + (last == null ? "" : " (last error: " + last + ")"));
    }

    private Properties clusterProperties() throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(runDir.resolve("cluster.properties"))) {
            p.load(r);
        }
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
