package dev.gantry.cli.bin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/lib/java.sh picks a Java 21 or newer as documented; a wrapper without its jar says how to build it. */
class BinScriptsTest {

    private static final Path BIN = Path.of("..", "bin").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    @BeforeEach
    void needsBash() {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is needed");
        assumeTrue(Files.isRegularFile(BIN.resolve("lib/java.sh")), "run from the cli module");
    }

    record Run(int exitCode, String out, String err) {}

    private Run bash(String script, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", script);
        pb.environment().clear();
        pb.environment().put("PATH", tmp.resolve("path") + ":" + tools());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        assertTrue(done, "script finished");
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** A directory with just the tools the scripts use, so that no java installed on this machine is found. */
    private Path tools() throws IOException {
        Path tools = Files.createDirectories(tmp.resolve("tools"));
        for (String tool : List.of("bash", "env", "readlink", "head", "find", "mkdir", "rm", "mv", "sh")) {
            Path link = tools.resolve(tool);
            if (Files.notExists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                for (String dir : List.of("/usr/bin", "/bin")) {
                    if (Files.isExecutable(Path.of(dir, tool))) {
                        Files.createSymbolicLink(link, Path.of(dir, tool));
                        break;
                    }
                }
            }
        }
        return tools;
    }

    /** A fake JDK: bin/java answering `-version` with {@code version}, and a release file unless told not to. */
    private Path jdk(String name, String version, boolean releaseFile) throws IOException {
        Path home = Files.createDirectories(tmp.resolve(name));
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"" + version + "\" 2026-01-01' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (releaseFile) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        }
        return home;
    }

    private Run find(Map<String, String> env) throws IOException, InterruptedException {
        Files.createDirectories(tmp.resolve("path"));
        return bash(". '" + BIN.resolve("lib/java.sh") + "'; gantry_find_java && echo \"$GANTRY_JAVA $GANTRY_JAVA_MAJOR\"", env);
    }

    @Test
    void javaHomeWinsWhenRecentEnough() throws Exception {
        Path home = jdk("jdk21", "21.0.5", true);
        Path jvms = Files.createDirectories(tmp.resolve("jvm"));
        jdk("jvm/jdk25", "25.0.1", true);
        Run r = find(Map.of("JAVA_HOME", home.toString(), "GANTRY_JVM_DIR", jvms.toString()));
        assertEquals(new Run(0, home.resolve("bin/java") + " 21\n", ""), r);
    }

    @Test
    void anOldJavaHomeIsPassedOverForTheNewestInstalledJdk() throws Exception {
        Path old = jdk("jdk17", "17.0.15", true);
        Path jvms = Files.createDirectories(tmp.resolve("jvm"));
        jdk("jvm/jdk17", "17.0.2", true);
        Path newest = jdk("jvm/jdk25", "25.0.3", true);
        jdk("jvm/jdk22", "22.0.1", true);
        Run r = find(Map.of("JAVA_HOME", old.toString(), "GANTRY_JVM_DIR", jvms.toString()));
        assertEquals(new Run(0, newest.resolve("bin/java") + " 25\n", ""), r);
    }

    @Test
    void javaOnThePathComesBeforeTheJvmDirectory() throws Exception {
        Path onPath = jdk("pathjdk", "22.0.1", false);
        Files.createDirectories(tmp.resolve("path"));
        Files.createSymbolicLink(tmp.resolve("path/java"), onPath.resolve("bin/java"));
        Path jvms = Files.createDirectories(tmp.resolve("jvm"));
        jdk("jvm/jdk25", "25.0.3", true);
        Run r = find(Map.of("GANTRY_JVM_DIR", jvms.toString()));
        assertEquals(new Run(0, tmp.resolve("path/java") + " 22\n", ""), r, "version read from java -version");
    }

    @Test
    void noSuitableJavaIsAClearError() throws Exception {
        Path jvms = Files.createDirectories(tmp.resolve("jvm"));
        jdk("jvm/jdk8", "1.8.0_292", false);
        jdk("jvm/jdk17", "17.0.2", true);
        Run r = find(Map.of("GANTRY_JVM_DIR", jvms.toString()));
        assertEquals(new Run(1, "", "gantry: no Java 21 or newer found; install one or set JAVA_HOME\n"), r);
    }

    @Test
    void aWrapperWithoutItsJarSaysHowToBuildIt() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("checkout"));
        Path bin = Files.createDirectories(root.resolve("bin/lib"));
        for (String f : List.of("squeue", "lib/cli.sh", "lib/java.sh")) {
            Files.copy(BIN.resolve(f), root.resolve("bin").resolve(f));
        }
        Path link = Files.createSymbolicLink(tmp.resolve("my-squeue"), root.resolve("bin/squeue"));
        Files.createDirectories(tmp.resolve("path"));
        Run r = bash("'" + link + "' -h", Map.of());
        assertEquals(1, r.exitCode());
        assertEquals("squeue: error: " + root.resolve("cli/target/gantry-cli.jar")
                + " is missing; build it first: (cd " + root + " && ./mvnw -q package -DskipTests)\n", r.err());
        assertTrue(Files.isDirectory(bin));
    }

    @Test
    void theClassArchive_isUsedOnlyWhileNewerThanTheJarAndEveryJarOfItsClassPath() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("checkout"));
        Files.createDirectories(root.resolve("bin/lib"));
        for (String f : List.of("squeue", "lib/cli.sh", "lib/java.sh")) {
            Files.copy(BIN.resolve(f), root.resolve("bin").resolve(f));
        }
        Path jar = Files.createDirectories(root.resolve("cli/target")).resolve("gantry-cli.jar");
        Files.writeString(jar, "jar");
        Path lib = Files.createDirectories(root.resolve("cli/target/lib")).resolve("gantry-common.jar");
        Files.writeString(lib, "lib");
        // a JDK whose java writes the archive it is asked to train, and logs how each command was started
        Path home = jdk("jdk25", "25.0.1", true);
        Path log = tmp.resolve("java.log");
        Files.writeString(home.resolve("bin/java"), """
                #!/bin/sh
                case "$*" in *-version*) echo 'openjdk version "25.0.1" 2026-01-01' >&2; exit 0;; esac
                for a in "$@"; do case "$a" in -XX:ArchiveClassesAtExit=*) echo archive > "${a#*=}";; esac; done
                case "$*" in *WarmupRun*) ;; *) echo "$*" >> '%s';; esac
                """.formatted(log));
        Files.createDirectories(tmp.resolve("path"));
        Map<String, String> env = Map.of("JAVA_HOME", home.toString());
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Files.setLastModifiedTime(jar, old);
        Files.setLastModifiedTime(lib, old);

        bash("'" + root.resolve("bin/squeue") + "'", env); // no archive yet: trained in the background
        Path cache = root.resolve("cli/target/jvm-cache");
        for (int i = 0; i < 500 && !hasArchive(cache); i++) {
            Thread.sleep(20);
        }
        assertTrue(hasArchive(cache), "the first command trained an archive");
        bash("'" + root.resolve("bin/squeue") + "'", env);
        Files.setLastModifiedTime(lib, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        bash("'" + root.resolve("bin/squeue") + "'", env);

        List<String> runs = Files.readAllLines(log);
        assertEquals(3, runs.size(), runs.toString());
        assertTrue(!runs.get(0).contains("SharedArchiveFile"), runs.get(0));
        assertTrue(runs.get(1).contains("-XX:SharedArchiveFile=" + cache), "used while fresh: " + runs.get(1));
        assertTrue(!runs.get(2).contains("SharedArchiveFile"), "not once a class-path jar is newer: " + runs.get(2));
    }

    private static boolean hasArchive(Path cache) throws IOException {
        if (!Files.isDirectory(cache)) {
            return false;
        }
        try (var files = Files.list(cache)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".jsa"));
        }
    }

    @Test
    void everyWrapperIsExecutableAndRunsItsCommand() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String command : List.of("sbatch", "squeue", "scancel", "sinfo", "scontrol", "sprio", "sshare")) {
            Path wrapper = BIN.resolve(command);
            if (!Files.isExecutable(wrapper)) {
                problems.add(command + " is not executable");
            } else if (!Files.readString(wrapper).contains("gantry_cli_exec " + command + " \"$@\"")) {
                problems.add(command + " does not run its command");
            }
        }
        assertEquals(List.of(), problems);
    }
}
