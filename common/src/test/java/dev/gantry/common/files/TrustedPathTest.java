package dev.gantry.common.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrustedPathTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "owner {0}, mode {1}, sticky allowed {2}: {3}")
    @CsvSource({
            "0,    0755, false, ''",
            "0,    0700, false, ''",
            "1000, 0755, false, 'owned by uid 1000 (only root or uid 500 may own it)'",
            "500,  0755, false, ''",
            "0,    0775, false, 'writable by its group (mode 0775)'",
            "0,    0777, false, 'writable by others (mode 0777)'",
            "0,    1777, false, 'writable by others (mode 1777)'",
            "0,    1777, true,  ''",
            "500,  1777, true,  'writable by others (mode 1777)'",
    })
    void oneDirectory(long owner, String mode, boolean allowSticky, String problem) {
        assertEquals(problem.isEmpty() ? Optional.empty() : Optional.of(problem),
                TrustedPath.problem(owner, Integer.parseInt(mode, 8), 500, allowSticky));
    }

    @Test
    void aDirectoryOthersCanWrite_isNamed() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path bin = Files.createDirectories(open.resolve("pg/bin"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));

        Optional<String> problem = TrustedPath.check(bin);

        assertEquals(Optional.of(open.toRealPath() + ": writable by others (mode 0777)"), problem);
    }

    @Test
    void aDirectoryOwnedByAnotherUser_isNamed() throws Exception {
        int other = LocalUsers.other();
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Path bin = Files.createDirectories(theirs.resolve("pg/bin"));
        Files.setAttribute(theirs, "unix:uid", other);

        Optional<String> problem = TrustedPath.check(bin);

        assertTrue(problem.orElseThrow().startsWith(theirs.toRealPath() + ": owned by uid " + other), problem.toString());
    }

    @Test
    void aSymbolicLink_isJudgedByWhereItLeads() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), open);

        assertEquals(Optional.of(open.toRealPath() + ": writable by others (mode 0777)"), TrustedPath.check(link));
    }
}
