package dev.gantry.e2e.images;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java base image made from this machine alone, for building Gantry's images where no registry is reachable:
 * a jlink'd runtime of the test's own JDK under /opt/java plus the C libraries it links against, saved as a
 * Docker-format image tarball (manifest.json, config.json, one layer), which Jib accepts as
 * {@code -Dgantry.image.base=tar:///path/base.tar}. Linux x86-64 with glibc only.
 */
public final class OfflineBaseImage {
    private OfflineBaseImage() {}

    private static final List<String> LIBS = List.of("libc.so.6", "libdl.so.2", "libm.so.6", "libpthread.so.0", "librt.so.1", "libz.so.1");

    /** Writes the base image to {@code dir}/base.tar (building in {@code dir}/root) and returns its path. */
    public static Path build(Path dir) throws IOException, InterruptedException {
        Path root = dir.resolve("root");
        Path javaHome = Path.of(System.getProperty("java.home"));
        run(dir, javaHome.resolve("bin/jlink").toString(), "--add-modules",
                "java.se,jdk.unsupported,jdk.management,jdk.jfr,jdk.crypto.ec,jdk.zipfs", "--strip-debug", "--no-man-pages",
                "--no-header-files", "--output", root.resolve("opt/java").toString());
        Path libDir = Files.createDirectories(root.resolve("lib/x86_64-linux-gnu"));
        for (String lib : LIBS) {
            Path host = Path.of("/lib/x86_64-linux-gnu", lib);
            if (Files.exists(host)) {
                Files.copy(host.toRealPath(), libDir.resolve(lib));
            }
        }
        Files.createDirectories(root.resolve("lib64"));
        Files.copy(Path.of("/lib64/ld-linux-x86-64.so.2").toRealPath(), root.resolve("lib64/ld-linux-x86-64.so.2"));
        Files.createDirectories(root.resolve("proc"));
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/false\ngantry:x:10001:10001:gantry:/tmp:/bin/false\n");
        Files.createDirectories(root.resolve("tmp"));
        run(dir, "chmod", "1777", root.resolve("tmp").toString());

        Path image = Files.createDirectories(dir.resolve("image"));
        run(dir, "tar", "-C", root.toString(), "--numeric-owner", "--owner=0", "--group=0", "-cf", image.resolve("layer.tar").toString(), ".");
        String diffId = "sha256:" + sha256(image.resolve("layer.tar"));
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = json.createObjectNode();
        config.put("architecture", "amd64").put("os", "linux");
        config.putObject("config").putArray("Env").add("PATH=/opt/java/bin:/usr/bin:/bin").add("JAVA_HOME=/opt/java");
        ObjectNode rootfs = config.putObject("rootfs");
        rootfs.put("type", "layers").putArray("diff_ids").add(diffId);
        Files.writeString(image.resolve("config.json"), json.writeValueAsString(config));
        Files.writeString(image.resolve("manifest.json"), "[{\"Config\":\"config.json\",\"RepoTags\":[\"gantry/offline-base:local\"],"
                + "\"Layers\":[\"layer.tar\"]}]", StandardCharsets.UTF_8);
        Path tar = dir.resolve("base.tar");
        run(dir, "tar", "-C", image.toString(), "-cf", tar.toString(), "manifest.json", "config.json", "layer.tar");
        return tar;
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String run(Path cwd, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "):\n" + out);
        }
        return out;
    }
}
