package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a job's user can put where the agent, as root, reads the job's exit status. */
class StatusFileTest {

    @TempDir
    Path job;

    @Test
    void theStatusTheShellWrote() throws Exception {
        Files.writeString(job.resolve("exit_status"), "137\n");

        assertEquals(Optional.of("137\n"), StatusFile.read(job.resolve("exit_status")));
    }

    @Test
    void aLinkToAnotherFile_isNotFollowed() throws Exception {
        Path secret = Files.writeString(job.resolve("shadow"), "42");
        Files.createSymbolicLink(job.resolve("exit_status"), secret);

        assertEquals(Optional.empty(), StatusFile.read(job.resolve("exit_status")));
    }

    @Test
    void aFifo_doesNotBlock_andYieldsNothing() throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", job.resolve("exit_status").toString()).start();
        assertEquals(0, mkfifo.waitFor());

        assertEquals("", StatusFile.read(job.resolve("exit_status")).orElse(""));
    }

    @Test
    void aDirectoryOrNothing_isEmpty() throws Exception {
        Files.createDirectory(job.resolve("exit_status"));

        assertEquals(Optional.empty(), StatusFile.read(job.resolve("exit_status")));
        assertEquals(Optional.empty(), StatusFile.read(job.resolve("absent")));
    }

    @Test
    void readsAtMostItsLimit() throws Exception {
        Files.writeString(job.resolve("exit_status"), "1".repeat(1000));

        assertEquals(StatusFile.LIMIT, StatusFile.read(job.resolve("exit_status")).orElseThrow().length());
    }
}
