package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * posix_spawn(3) as the agent starts a job's first process: a new session, nothing inherited from the agent but
 * stdin's pipe and /dev/null for output, default signal dispositions, the given directory and environment, and
 * exit values as the JDK reports them.
 */
class NativeSpawnTest {

    private static NativeSpawn spawn;

    @BeforeAll
    static void glibcWithSpawnActions() {
        Function version = NativeLibrary.getInstance("c").getFunction("gnu_get_libc_version");
        String[] v = version.invokeString(new Object[0], false).split("\\.");
        assumeTrue(Integer.parseInt(v[0]) > 2 || Integer.parseInt(v[1]) >= 34, "glibc " + String.join(".", v) + " < 2.34");
        spawn = NativeSpawn.load().orElseThrow(() -> new AssertionError("glibc >= 2.34 but posix_spawn's actions missing"));
    }

    @Test
    void theChild_leadsItsOwnSession_withOnlyStdinStdoutStderr_defaultSignals_theDirectoryAndEnvironmentGiven(@TempDir Path dir) throws Exception {
        Path seen = dir.resolve("seen");
        SpawnedProcess p = spawn.spawn(List.of("/bin/sh", "-c", "read go; echo \"$go $PWD $ONLY\" > " + seen + "; env | sort | tr '\\n' ' ' >> " + seen),
                Map.of("ONLY", "this", "PATH", "/usr/bin:/bin"), dir);
        try {
            ProcStat stat = ProcFs.stat(p.pid()).orElseThrow();
            assertEquals(p.pid(), stat.pgrp(), "leads its process group");
            // the new shell's dynamic loader briefly holds the libraries it loads open (fd 3): wait until it settles;
            // a descriptor inherited from the agent would stay, and this would give up
            Path fds = Path.of("/proc", String.valueOf(p.pid()), "fd");
            dev.gantry.agent.testing.Await.until("only stdin, stdout and stderr open (nothing of the agent's inherited)",
                    () -> Set.of("0", "1", "2").equals(new TreeSet<>(List.of(fds.toFile().list()))));
            String status = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "status"));
            assertTrue(status.contains("SigBlk:\t0000000000000000"), "no signal blocked: " + status);
            long ignored = Long.parseUnsignedLong(status.replaceAll("(?s).*SigIgn:\t([0-9a-f]+).*", "$1"), 16);
            assertEquals(0, ignored & 0x7fffffffL, "no standard signal ignored (glibc keeps its own 32 and 33): " + status);
            assertEquals(String.valueOf(p.pid()), sessionOf(p.pid()), "leads its session");
            assertTrue(p.isAlive(), "waits for its stdin");
        } finally {
            try (OutputStream go = p.getOutputStream()) {
                go.write("go\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        assertEquals(0, p.waitFor());
        assertFalse(p.isAlive());
        String out = Files.readString(seen);
        assertTrue(out.startsWith("go " + dir.toRealPath() + " this\n"), out);
        assertTrue(out.contains("ONLY=this PATH=/usr/bin:/bin PWD="), "exactly the environment given (and the shell's own PWD…): " + out);
    }

    @Test
    void exitValues_areTheCode_or128PlusTheSignal(@TempDir Path dir) throws Exception {
        assertEquals(3, spawn.spawn(List.of("/bin/sh", "-c", "exit 3"), Map.of(), dir).waitFor());
        SpawnedProcess killed = spawn.spawn(List.of("/bin/sh", "-c", "read x"), Map.of(), dir);
        killed.destroyForcibly();
        assertEquals(128 + 9, killed.waitFor());
        assertEquals(128 + 9, killed.exitValue());
    }

    @Test
    void aWaiterAndAnotherThreadAskingIsAlive_agreeOnTheExit(@TempDir Path dir) throws Exception {
        SpawnedProcess p = spawn.spawn(List.of("/bin/sh", "-c", "read x; exit 7"), Map.of(), dir);
        CompletableFuture<Integer> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThrows(IllegalThreadStateException.class, p::exitValue, "still running");
        p.getOutputStream().close(); // EOF: read fails, the shell goes on to exit 7
        assertEquals(7, waiter.get(60, TimeUnit.SECONDS));
        assertEquals(7, p.exitValue());
        assertFalse(p.isAlive());
    }

    @Test
    void aProgramThatCannotRun_failsTheSpawn_namingIt(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class, () -> spawn.spawn(List.of(dir.resolve("missing").toString()), Map.of(), dir));
        assertTrue(e.getMessage().contains("missing\": error=2, No such file or directory"), e.getMessage());
    }

    private static String sessionOf(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
    }
}
