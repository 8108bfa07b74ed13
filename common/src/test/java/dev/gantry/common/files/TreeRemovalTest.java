package dev.gantry.common.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeRemovalTest {

    @TempDir
    Path tmp;

    @Test
    void removesATree() throws Exception {
        Path job = Files.createDirectories(tmp.resolve("spool/job7/sub/deeper"));
        Files.writeString(job.resolve("f"), "x");
        Files.writeString(tmp.resolve("spool/job7/slurm_script"), "#!/bin/sh");

        TreeRemoval.delete(tmp.resolve("spool/job7"));

        assertFalse(Files.exists(tmp.resolve("spool/job7")));
        assertTrue(Files.isDirectory(tmp.resolve("spool")));
    }

    @Test
    void linksAreRemoved_neverFollowed() throws Exception {
        Path precious = Files.createDirectories(tmp.resolve("etc"));
        Files.writeString(precious.resolve("passwd"), "root:x:0:0");
        Path job = Files.createDirectories(tmp.resolve("spool/job8"));
        Files.createSymbolicLink(job.resolve("sub"), precious); // what a job's user can plant in its own directory
        Files.createSymbolicLink(job.resolve("exit_status"), precious.resolve("passwd"));

        TreeRemoval.delete(job);

        assertFalse(Files.exists(job));
        assertEquals("root:x:0:0", Files.readString(precious.resolve("passwd")));
    }

    @Test
    void aRootThatIsALink_isRemovedAsALink() throws Exception {
        Path precious = Files.createDirectories(tmp.resolve("etc"));
        Files.writeString(precious.resolve("shadow"), "s");
        Path link = Files.createSymbolicLink(tmp.resolve("job9"), precious);

        TreeRemoval.delete(link);

        assertFalse(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(precious.resolve("shadow")));
    }

    @Test
    void aMissingTree_isNoError() throws Exception {
        TreeRemoval.delete(tmp.resolve("absent"));
    }
}
