package dev.gantry.e2e.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.e2e.k8s.Manifests;
import dev.gantry.e2e.k8s.ServiceSettings;
import io.fabric8.kubernetes.api.model.Container;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The `images` Maven profile builds every service's image with Jib and no Docker daemon, offline: the base image is
 * a tarball made from this machine's JDK ({@link OfflineBaseImage}) instead of eclipse-temurin from a registry.
 * The images are then checked against the services and the Kubernetes manifests, and select-svc's image is run
 * (its layers unpacked into a root file system, started with chroot in its own PID and mount namespaces, as the
 * image's user) until it answers its gRPC health check and serves /prometheus. Pushing (jib:build) needs a registry
 * and is not tested here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImagesE2ETest {

    private static final List<String> SERVICES = List.of("scheduler-svc", "select-svc", "gang-svc", "node-agent");
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path tmp;
    private Path home;
    private Path baseTar;

    @BeforeAll
    void buildImages(@TempDir Path dir) throws Exception {
        tmp = dir;
        home = Manifests.home();
        baseTar = OfflineBaseImage.build(Files.createDirectories(dir.resolve("base")));
        OfflineBaseImage.run(home, home.resolve("mvnw").toString(), "-B", "-ntp", "-q", "-Pimages",
                "-Dgantry.image.base=tar://" + baseTar, "-Dmaven.test.skip=true", "-pl", String.join(",", SERVICES), "-am", "package");
    }

    private Path imageDir(String service) throws Exception {
        Path d = tmp.resolve("image-" + service);
        if (!Files.exists(d)) {
            Files.createDirectories(d);
            OfflineBaseImage.run(d, "tar", "-xf", home.resolve(service).resolve("target/jib-image.tar").toString());
        }
        return d;
    }

    @ParameterizedTest(name = "{0}: tag, entrypoint, ports and user match the service and the manifests")
    @ValueSource(strings = {"scheduler-svc", "select-svc", "gang-svc", "node-agent"})
    void image_matchesTheServiceAndTheManifests(String service) throws Exception {
        Path d = imageDir(service);
        JsonNode manifest = JSON.readTree(d.resolve("manifest.json").toFile()).get(0);
        JsonNode config = JSON.readTree(d.resolve(manifest.path("Config").asText()).toFile()).path("config");
        Manifests k8s = Manifests.render("base");
        Container c = k8s.podTemplate(service).getSpec().getContainers().get(0);
        assertEquals(c.getImage(), manifest.path("RepoTags").get(0).asText(), "the default tag is the image the manifests deploy");

        String mainClass;
        try (JarFile jar = new JarFile(home.resolve(service).resolve("target/gantry-" + service + ".jar").toFile())) {
            mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
        }
        List<String> entrypoint = new ArrayList<>();
        config.path("Entrypoint").forEach(n -> entrypoint.add(n.asText()));
        assertEquals(List.of("java", "-cp", "@/app/jib-classpath-file", mainClass), entrypoint);

        ServiceSettings settings = ServiceSettings.of(service);
        Set<String> ports = new TreeSet<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        assertEquals(new TreeSet<>(List.of(settings.grpcPort().defaultValue() + "/tcp", settings.httpPort().defaultValue() + "/tcp")), ports);

        var podSc = k8s.podTemplate(service).getSpec().getSecurityContext();
        Long runAs = c.getSecurityContext().getRunAsUser() != null ? c.getSecurityContext().getRunAsUser()
                : podSc == null ? null : podSc.getRunAsUser();
        assertEquals(String.valueOf(runAs), config.path("User").asText(), "the image's user is the one the pod runs as");
        assertTrue(manifest.path("Layers").size() >= 2, "base layer plus Jib's dependency, resource and class layers");
    }

    @Test
    void selectSvcImage_runs_answersHealth_andServesMetrics() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(OfflineBaseImage.run(tmp, "id", "-u").trim().equals("0"),
                "running an image without a container runtime needs root (mount namespaces, chroot)");
        Path d = imageDir("select-svc");
        JsonNode manifest = JSON.readTree(d.resolve("manifest.json").toFile()).get(0);
        JsonNode config = JSON.readTree(d.resolve(manifest.path("Config").asText()).toFile()).path("config");
        Path rootfs = Files.createDirectories(tmp.resolve("rootfs"));
        for (JsonNode layer : manifest.path("Layers")) {
            String name = layer.asText();
            OfflineBaseImage.run(d, "tar", "--warning=no-unknown-keyword", name.endsWith(".gz") ? "-xzf" : "-xf", d.resolve(name).toString(), "-C", rootfs.toString());
        }
        int grpc = freePort();
        int http = freePort();
        // its identity, as the gantry-tls Secret would mount it (readable by the image's user, as with fsGroup)
        var certs = dev.gantry.common.tls.CertificateDirectory.open(rootfs.resolve("etc/gantry/tls"), "images-e2e", Instant.now());
        certs.issue(dev.gantry.common.tls.Peer.SELECT, List.of(), Instant.now(), Duration.ofDays(1));
        try (var files = Files.walk(rootfs.resolve("etc/gantry"))) {
            for (Path f : files.toList()) {
                Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString(Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        List<String> env = new ArrayList<>();
        config.path("Env").forEach(e -> env.add(e.asText()));
        env.addAll(List.of("GANTRY_BIND_HOST=127.0.0.1", "GANTRY_GRPC_PORT=" + grpc, "GANTRY_HTTP_PORT=" + http,
                "GANTRY_INTERNAL_PORT=" + freePort(), "GANTRY_SCHEDULER_ADDRESS=127.0.0.1:1",
                "GANTRY_TLS_CA=/etc/gantry/tls/ca.crt", "GANTRY_TLS_CERT=/etc/gantry/tls/services/select-svc.crt",
                "GANTRY_TLS_KEY=/etc/gantry/tls/services/select-svc.key"));
        List<String> entry = new ArrayList<>();
        for (Iterator<JsonNode> it = config.path("Entrypoint").elements(); it.hasNext(); ) {
            entry.add(it.next().asText());
        }
        String user = config.path("User").asText();
        // As a container runtime would: the image's entrypoint, found on the image's PATH, as the image's user,
        // in the image's file system, with its own /proc.
        String script = "/bin/mount -t proc proc \"$0/proc\" && exec /usr/sbin/chroot --userspec=" + user + ":" + user + " \"$0\" "
                + String.join(" ", entry);
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/unshare", "--mount", "--pid", "--fork", "/bin/sh", "-c", script, rootfs.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("select-svc-image.log").toFile());
        pb.environment().clear();
        for (String e : env) {
            int eq = e.indexOf('=');
            pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
        }
        Process p = pb.start();
        try {
            awaitServing(grpc, p);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> metrics = null;
            for (Instant deadline = Instant.now().plusSeconds(120); metrics == null && Instant.now().isBefore(deadline); ) {
                try {
                    metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/prometheus"))
                            .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                } catch (IOException notYet) {
                    Thread.sleep(250);
                }
            }
            assertTrue(metrics != null, "select-svc's image serves /prometheus");
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("gantry_select_replica_ready"), metrics.body());
        } finally {
            // The JVM runs as PID 1 of its own PID namespace, under another uid: stopping unshare alone would leave
            // it running, so stop the whole tree, the service first.
            List<ProcessHandle> tree = new ArrayList<>(p.toHandle().descendants().toList());
            java.util.Collections.reverse(tree);
            tree.forEach(ProcessHandle::destroy);
            p.destroy();
            for (ProcessHandle h : tree) {
                try {
                    h.onExit().get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    h.destroyForcibly();
                }
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private void awaitServing(int port, Process p) throws Exception {
        Instant deadline = Instant.now().plusSeconds(120);
        ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            while (Instant.now().isBefore(deadline)) {
                if (!p.isAlive()) {
                    fail("select-svc's image exited " + p.exitValue() + ":\n" + Files.readString(tmp.resolve("select-svc-image.log")));
                }
                try {
                    var r = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance());
                    if (r.getStatus() == HealthCheckResponse.ServingStatus.SERVING) {
                        return;
                    }
                } catch (io.grpc.StatusRuntimeException notYet) {
                    // starting
                }
                Thread.sleep(250);
            }
            fail("select-svc's image did not answer SERVING:\n" + Files.readString(tmp.resolve("select-svc-image.log")));
        } finally {
            ch.shutdownNow();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
