package dev.gantry.e2e.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The files a deployment hands the services: the ConfigMap's cluster config, a broken one (which must stop
 * scheduler-svc with file:line, so the pod never becomes ready), the signing key made by the documented command, and
 * the service certificates made by {@code gantry certs} (missing ones stop every service naming the variable).
 */
class KubernetesConfigFilesTest {

    @TempDir
    Path tmp;

    private static String configMapConfig() throws Exception {
        Manifests m = Manifests.render("overlays/prod");
        ConfigMap cm = m.all(ConfigMap.class).stream().filter(c -> c.getMetadata().getName().startsWith("gantry-config"))
                .findFirst().orElseThrow();
        return cm.getData().get("gantry.conf");
    }

    @Test
    void theShippedConfig_parsesWithoutProblems_andNamesNodesAsKubernetesNames() throws Exception {
        ClusterConfig config = ConfigParser.parse(Path.of("/etc/gantry/config/gantry.conf"), configMapConfig());
        assertFalse(config.nodes().isEmpty());
        assertFalse(config.partitions().isEmpty());
        config.nodes().forEach(n -> assertTrue(n.name().matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?"),
                n.name() + " must be a Kubernetes node name (the agent registers as spec.nodeName)"));
    }

    @ParameterizedTest(name = "{0}: scheduler-svc exits 2 with \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "malformed|gantry.conf:LINE: Bogus: unknown key",
        "missing|gantry.conf: cannot read",
    })
    void aBrokenConfig_stopsSchedulerSvcWithFileAndLine_beforeItServes(String broken, String expected) throws Exception {
        String text = configMapConfig();
        Path dir = Files.createDirectories(tmp.resolve("etc/gantry/config"));
        Path conf = dir.resolve("gantry.conf");
        int line = (int) text.lines().count() + 1;
        if (broken.equals("malformed")) {
            Files.writeString(conf, text + "Bogus=1\n");
        }
        Result r = runScheduler(conf);
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains(conf + expected.replace("gantry.conf", "").replace("LINE", Integer.toString(line))), r.toString());
    }

    @Test
    void aMissingKeyInTheCredentialSecret_stopsTheAgentWithTheVariableAndTheFile() throws Exception {
        Path pub = tmp.resolve("etc/gantry/cred/cred.pub");
        Result r = runService("node-agent", "node-agent", java.util.Map.of(
                "GANTRY_NODE_NAME", "worker-1",
                "GANTRY_AGENT_ADVERTISE_ADDRESS", "127.0.0.1:6820",
                "GANTRY_SCHEDULER_ADDRESS", "127.0.0.1:1",
                "GANTRY_AGENT_SPOOL_DIR", tmp.resolve("spool").toString(),
                "GANTRY_CRED_PUBLIC_KEY", pub.toString()));
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("GANTRY_CRED_PUBLIC_KEY=" + pub + ": No such file or directory"), r.toString());
    }

    /**
     * Every service reads its certificate at start: with the manifests' TLS paths and no gantry-tls Secret behind them
     * (or a key missing from it) it stops with exit 2 naming the variable and the file, so the pod never becomes
     * ready and `kubectl logs` says why.
     */
    @ParameterizedTest(name = "{0} without its TLS files exits 2 naming GANTRY_TLS_CA")
    @CsvSource({"scheduler-svc, scheduler-svc", "select-svc, select-svc", "gang-svc, gang-svc", "node-agent, gantry-node-agent"})
    void missingTlsFiles_stopEveryServiceWithTheVariableAndTheFile(String module, String prefix) throws Exception {
        java.util.Map<String, String> overrides = new java.util.HashMap<>();
        if (module.equals("scheduler-svc")) {
            Path conf = Files.writeString(Files.createDirectories(tmp.resolve("etc/gantry/config")).resolve("gantry.conf"), configMapConfig());
            overrides.putAll(java.util.Map.of("GANTRY_CONFIG", conf.toString(), "GANTRY_STATE_DIR", tmp.resolve("state").toString()));
        } else if (module.equals("node-agent")) {
            CredentialKeys.createIfMissing(tmp.resolve("cred.key"), tmp.resolve("cred.pub"));
            overrides.putAll(java.util.Map.of("GANTRY_NODE_NAME", "worker-1", "GANTRY_AGENT_ADVERTISE_ADDRESS", "127.0.0.1:6830",
                    "GANTRY_AGENT_STEP_ADDRESS", "127.0.0.1:6820", "GANTRY_AGENT_SPOOL_DIR", tmp.resolve("spool").toString(),
                    "GANTRY_CRED_PUBLIC_KEY", tmp.resolve("cred.pub").toString()));
        }
        overrides.put("GANTRY_INTERNAL_PORT", "0");

        Result r = runService(module, module, overrides);

        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains(prefix + ": cannot start: GANTRY_TLS_CA=/etc/gantry/tls/ca.crt: No such file or directory"), r.toString());
    }

    /**
     * docs/kubernetes.md: {@code gantry certs --dir tls --config gantry.conf}, then the two Secrets from
     * {@code tls/services/} and {@code tls/nodes/}: every file the manifests mount is there, and each service and every
     * NodeName's agent loads its own as itself.
     */
    @Test
    void theDocumentedCertsCommand_issuesEveryFileTheManifestsMount() throws Exception {
        Path conf = Files.writeString(tmp.resolve("gantry.conf"), configMapConfig());
        run(List.of(Manifests.home().resolve("bin/gantry").toString(), "certs", "--dir", "tls", "--config", conf.toString()));
        Path tls = tmp.resolve("tls");
        // kubectl create secret generic gantry-tls --from-file=tls/ca.crt --from-file=tls/services/
        java.util.Set<String> gantryTls = new java.util.TreeSet<>(List.of("ca.crt"));
        // kubectl create secret generic gantry-tls-nodes --from-file=tls/ca.crt --from-file=tls/nodes/
        java.util.Set<String> gantryTlsNodes = new java.util.TreeSet<>(List.of("ca.crt"));
        try (var files = Files.list(tls.resolve("services"))) {
            files.forEach(f -> gantryTls.add(f.getFileName().toString()));
        }
        try (var files = Files.list(tls.resolve("nodes"))) {
            files.forEach(f -> gantryTlsNodes.add(f.getFileName().toString()));
        }
        Manifests m = Manifests.render("overlays/prod");
        for (String workload : List.of("scheduler-svc", "select-svc", "gang-svc")) {
            var volume = m.podTemplate(workload).getSpec().getVolumes().stream().filter(v -> v.getSecret() != null
                    && "gantry-tls".equals(v.getSecret().getSecretName())).findFirst().orElseThrow();
            volume.getSecret().getItems().forEach(i -> assertTrue(gantryTls.contains(i.getKey()), workload + " mounts " + i.getKey()
                    + ", which the documented Secret " + gantryTls + " has"));
            Peer self = Peer.SERVICES.stream().filter(p -> p.name().equals(workload)).findFirst().orElseThrow();
            ServiceTls.load(tls.resolve("ca.crt").toString(), tls.resolve("services/" + workload + ".crt").toString(),
                    tls.resolve("services/" + workload + ".key").toString(), self, java.time.Instant.now());
        }
        Container agent = m.podTemplate("node-agent").getSpec().getContainers().get(0);
        String certPattern = agent.getEnv().stream().filter(e -> e.getName().equals("GANTRY_TLS_CERT")).findFirst().orElseThrow().getValue();
        for (var node : ConfigParser.parse(conf).nodes()) {
            String file = certPattern.replace("$(GANTRY_NODE_NAME)", node.name()).substring("/etc/gantry/tls/".length());
            assertTrue(gantryTlsNodes.contains(file), "gantry-tls-nodes holds " + file + ": " + gantryTlsNodes);
            ServiceTls.load(tls.resolve("ca.crt").toString(), tls.resolve("nodes/" + node.name() + ".crt").toString(),
                    tls.resolve("nodes/" + node.name() + ".key").toString(), new Peer.Node(node.name()), java.time.Instant.now());
        }
    }

    private record Result(int exit, String err) {}

    /** Starts scheduler-svc's jar as its container would, with the manifest's environment and the given config. */
    private Result runScheduler(Path conf) throws Exception {
        return runService("scheduler-svc", "scheduler-svc", java.util.Map.of(
                "GANTRY_CONFIG", conf.toString(), "GANTRY_STATE_DIR", tmp.resolve("state").toString()));
    }

    /**
     * Starts a service's jar with the literal GANTRY_* values its container gets from the prod manifests, on
     * loopback and ephemeral ports, plus {@code overrides} (paths into this test's directory).
     */
    private Result runService(String module, String workload, java.util.Map<String, String> overrides) throws Exception {
        Path jar = Manifests.home().resolve(module + "/target/gantry-" + module + ".jar");
        assertTrue(Files.isRegularFile(jar), "build " + module + " first: " + jar);
        Container c = Manifests.render("overlays/prod").podTemplate(workload).getSpec().getContainers().get(0);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-jar", jar.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        for (EnvVar e : c.getEnv()) {
            if (e.getValue() != null && e.getName().startsWith("GANTRY_")) {
                pb.environment().put(e.getName(), e.getValue());
            }
        }
        pb.environment().put("GANTRY_BIND_HOST", "127.0.0.1");
        pb.environment().put("GANTRY_GRPC_PORT", "0");
        pb.environment().put("GANTRY_HTTP_PORT", "0");
        pb.environment().putAll(overrides);
        Path stderr = tmp.resolve(module + ".err");
        pb.redirectError(stderr.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(module + " kept running on a broken configuration:\n" + Files.readString(stderr));
        }
        return new Result(p.exitValue(), Files.readString(stderr));
    }

    @Test
    void theDocumentedKeyCommand_makesAKeyPairTheServicesRead() throws Exception {
        // docs/kubernetes.md: openssl genpkey -algorithm ed25519 -out cred.key; openssl pkey -in cred.key -pubout -out cred.pub
        run(List.of("openssl", "genpkey", "-algorithm", "ed25519", "-out", "cred.key"));
        run(List.of("openssl", "pkey", "-in", "cred.key", "-pubout", "-out", "cred.pub"));
        PrivateKey priv = CredentialKeys.readPrivate(tmp.resolve("cred.key"));
        PublicKey pub = CredentialKeys.readPublic(tmp.resolve("cred.pub"));
        byte[] message = "launch job 1 on worker-1".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(priv);
        signer.update(message);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(pub);
        verifier.update(message);
        assertTrue(verifier.verify(signature), "the public key verifies what the private key signs");
    }

    private void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(command)).directory(tmp.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
    }
}
