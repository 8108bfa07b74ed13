package dev.gantry.common.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateFilesTest {

    @TempDir
    Path tmp;

    @Test
    void ownerOnlyDirectory_isCreated0700_evenUnderAPermissiveUmask() throws Exception {
        Path state = PrivateFiles.ownerOnlyDirectory(tmp.resolve("run/state"));

        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(state));
    }

    @Test
    void ownerOnlyDirectory_tightensAnExistingOne() throws Exception {
        Path state = Files.createDirectory(tmp.resolve("state"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxrwxrwx"));

        PrivateFiles.ownerOnlyDirectory(state);

        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(state));
    }

    @Test
    void aDirectoryOwnedByAnotherUser_isRefused_notTakenOver() throws Exception {
        int other = LocalUsers.other();
        Path planted = Files.createDirectory(tmp.resolve("spool"));
        Files.setAttribute(planted, "unix:uid", other);
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwxrwxrwx"));

        IOException e = assertThrows(IOException.class, () -> PrivateFiles.directory(planted, PrivateFiles.TRAVERSABLE_DIR));

        assertTrue(e.getMessage().contains("owned by uid " + other), e.getMessage());
        assertEquals(PosixFilePermissions.fromString("rwxrwxrwx"), Files.getPosixFilePermissions(planted), "left alone");
    }

    @Test
    void aLinkInPlaceOfTheDirectory_isRefused() throws Exception {
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(tmp.resolve("state"), elsewhere);

        IOException e = assertThrows(IOException.class, () -> PrivateFiles.ownerOnlyDirectory(link));

        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
    }

    @Test
    void writeSecret_leavesOnlyThe0600File_andReplacesAWiderOne() throws Exception {
        Path secret = tmp.resolve("db.password");
        Files.writeString(secret, "old");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));

        PrivateFiles.writeSecret(secret, "new\n");

        assertEquals("new\n", Files.readString(secret));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(secret));
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(secret), left.toList());
        }
    }

    @Test
    void restrict_setsAnExistingKeyTo0600() throws Exception {
        Path pub = Files.writeString(tmp.resolve("cred.pub"), "key");
        Files.setPosixFilePermissions(pub, PosixFilePermissions.fromString("rw-r--r--"));

        PrivateFiles.restrict(pub);
        PrivateFiles.restrict(tmp.resolve("absent"));

        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(pub));
    }
}
