package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local cluster's class archives, with real JVMs: services of one jar stopped together each write their own
 * archive, one is promoted whole, and later JVMs start from it (-Xshare:on refuses to start on an archive it cannot
 * map); a stale, half-written or crashing archive is never used.
 */
class ServiceArchivesTest {

    @TempDir
    Path dir;

    private static final String JAVA = ProcessHandle.current().info().command().orElse("java");

    /** A jar holding {@link ArchiveProbe}, as a service's jar is (lib/ beside it), dated an hour ago. */
    private Path probeJar() throws IOException {
        Path target = Files.createDirectories(dir.resolve("module/target"));
        Files.createDirectories(target.resolve("lib"));
        Path lib = Files.writeString(target.resolve("lib/dep.jar"), "not really a jar");
        Path jar = target.resolve("probe.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, ArchiveProbe.class.getName());
        String entry = ArchiveProbe.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m);
                var in = ArchiveProbe.class.getClassLoader().getResourceAsStream(entry)) {
            j.putNextEntry(new JarEntry(entry));
            in.transferTo(j);
            j.closeEntry();
        }
        FileTime hourAgo = FileTime.from(Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(jar, hourAgo);
        Files.setLastModifiedTime(lib, hourAgo);
        return jar;
    }

    private static StartedCluster.Service service(String name, Path jar, List<String> flags, Path log) {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:+UseSerialGC", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        cmd.addAll(flags);
        cmd.addAll(List.of("-jar", jar.toString()));
        return new StartedCluster.Service(name, 0, 0, 0, log, cmd, Map.of());
    }

    /** Starts {@code s} and waits for its "up". */
    private static Process startAndAwaitUp(StartedCluster.Service s) throws IOException {
        Process p = new ProcessBuilder(s.command()).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        assertEquals("up", line, s.name() + " did not start");
        return p;
    }

    @Test
    void agentsStoppedTogetherLeaveOneWholeArchiveThatLaterStartsMap() throws Exception {
        Path jar = probeJar();
        Path runDir = Files.createDirectories(dir.resolve("run"));
        List<StartedCluster.Service> agents = new ArrayList<>();
        for (String n : List.of("agent-n1", "agent-n2", "agent-n3")) {
            List<String> flags = ServiceArchives.flags(jar, runDir, n);
            assertEquals(List.of("-XX:ArchiveClassesAtExit=" + ServiceArchives.part(runDir, n)), flags, "no archive yet: each writes its own");
            agents.add(service(n, jar, flags, runDir.resolve(n + ".log")));
        }
        List<Process> running = new ArrayList<>();
        for (StartedCluster.Service a : agents) {
            running.add(startAndAwaitUp(a));
        }
        running.forEach(Process::destroy); // SIGTERM to all at once, as gantry down does
        for (Process p : running) {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
        for (StartedCluster.Service a : agents) {
            assertTrue(ServiceArchives.hasMagic(ServiceArchives.part(runDir, a.name())), a.name() + " wrote no archive at exit");
        }

        List<Path> promoted = ServiceArchives.promote(agents);

        Path archive = ServiceArchives.archive(jar);
        assertEquals(List.of(archive), promoted, "one archive promoted, the others dropped");
        assertTrue(ServiceArchives.usable(archive, jar));
        for (StartedCluster.Service a : agents) {
            assertFalse(Files.exists(ServiceArchives.part(runDir, a.name())), "the run directory's copies are removed");
        }
        try (var left = Files.list(archive.getParent())) {
            assertEquals(List.of(archive), left.toList(), "no temporary file is left beside the archive");
        }
        // the next start reads it; -Xshare:on makes a JVM that cannot map it fail instead of running without
        List<String> flags = ServiceArchives.flags(jar, runDir, "agent-n1");
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive), flags);
        List<String> cmd = new ArrayList<>(service("agent-n1", jar, flags, runDir.resolve("x.log")).command());
        cmd.add(cmd.indexOf("-jar"), "-Xshare:on");
        cmd.add("once");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "a JVM mapping the promoted archive with -Xshare:on: " + out);
        assertEquals("up", out.strip());
    }

    @Test
    void anArchiveOlderThanItsJarOrALibJarIsNotUsed() throws Exception {
        Path jar = probeJar();
        Path archive = ServiceArchives.archive(jar);
        Files.createDirectories(archive.getParent());
        Files.write(archive, new byte[] {(byte) 0xa8, (byte) 0xab, 0x0b, (byte) 0xf0, 1, 2, 3});
        assertTrue(ServiceArchives.usable(archive, jar));

        Files.setLastModifiedTime(jar.resolveSibling("lib/dep.jar"), FileTime.from(Instant.now().plusSeconds(60)));
        assertFalse(ServiceArchives.usable(archive, jar), "a rebuilt lib/ jar makes it stale");
        assertTrue(ServiceArchives.flags(jar, dir.resolve("run"), "gang").get(0).startsWith("-XX:ArchiveClassesAtExit="));

        Files.setLastModifiedTime(jar.resolveSibling("lib/dep.jar"), FileTime.from(Instant.now().minusSeconds(3600)));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
        assertFalse(ServiceArchives.usable(archive, jar), "a rebuilt jar makes it stale");
    }

    @Test
    void aHalfWrittenArchiveIsNeitherPromotedNorUsed() throws Exception {
        Path jar = probeJar();
        Path runDir = Files.createDirectories(dir.resolve("run"));
        StartedCluster.Service gang = service("gang", jar, ServiceArchives.flags(jar, runDir, "gang"), runDir.resolve("gang.log"));
        // HotSpot writes the header last: a JVM killed while dumping leaves zeros where the magic goes
        Files.write(ServiceArchives.part(runDir, "gang"), new byte[4096]);

        assertEquals(List.of(), ServiceArchives.promote(List.of(gang)));
        assertFalse(Files.exists(ServiceArchives.archive(jar)));
        assertFalse(Files.exists(ServiceArchives.part(runDir, "gang")));

        Path archive = ServiceArchives.archive(jar);
        Files.createDirectories(archive.getParent());
        Files.write(archive, new byte[4096]);
        assertFalse(ServiceArchives.usable(archive, jar));
    }

    @Test
    void aServiceThatDiedOfAJvmFatalErrorLosesItsArchive() throws Exception {
        Path jar = probeJar();
        Path archive = ServiceArchives.archive(jar);
        Files.createDirectories(archive.getParent());
        Files.write(archive, new byte[] {(byte) 0xa8, (byte) 0xab, 0x0b, (byte) 0xf0});
        Path runDir = Files.createDirectories(dir.resolve("run"));
        StartedCluster.Service agent = service("agent-a1", jar, ServiceArchives.flags(jar, runDir, "agent-a1"), runDir.resolve("a.log"));
        assertTrue(agent.command().contains("-XX:SharedArchiveFile=" + archive));

        assertEquals(java.util.Optional.empty(), ServiceArchives.discardAfterCrash(agent, List.of("gantry: exiting: no config")),
                "an ordinary failure keeps it");
        assertTrue(Files.exists(archive));

        List<String> hsErr = List.of("#", "# " + ServiceArchives.FATAL_ERROR + ":", "#", "#  SIGSEGV (0xb) at pc=0x00007f389e0a0f4f",
                "# V  [libjvm.so+0x4a0f4f]  AOTClassLocationConfig::validate(char const*, bool, bool*) const+0xc3f");
        assertEquals(java.util.Optional.of(archive), ServiceArchives.discardAfterCrash(agent, hsErr));
        assertFalse(Files.exists(archive));
        assertTrue(ServiceArchives.flags(jar, runDir, "agent-a1").get(0).startsWith("-XX:ArchiveClassesAtExit="),
                "its next start writes a new one");
    }
}
