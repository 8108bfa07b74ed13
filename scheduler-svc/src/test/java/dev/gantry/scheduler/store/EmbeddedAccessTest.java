package dev.gantry.scheduler.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EmbeddedAccessTest {

    @Test
    void hba_admitsOnlyTheUnixSocket_withAScramPassword() {
        List<String> rules = EmbeddedAccess.HBA.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();

        assertEquals(List.of("local   all       all   scram-sha-256"), rules);
        assertFalse(EmbeddedAccess.HBA.contains("trust"));
        assertFalse(EmbeddedAccess.HBA.matches("(?s).*^host.*"), "no TCP rule");
    }

    @Test
    void serverOptions_noTcp_privateSocket_durableCommits() {
        List<String> options = EmbeddedAccess.serverOptions(Path.of("/run/x/pgsocket"), 40);

        assertEquals(List.of("listen_addresses=", "port=5432", "unix_socket_directories=/run/x/pgsocket",
                "unix_socket_permissions=0700", "password_encryption=scram-sha-256", "fsync=on", "synchronous_commit=on",
                "max_connections=40", "timezone=UTC"), settings(options));
    }

    private static List<String> settings(List<String> options) {
        for (int i = 0; i < options.size(); i += 2) {
            assertEquals("-c", options.get(i));
        }
        return java.util.stream.IntStream.range(0, options.size() / 2).mapToObj(i -> options.get(2 * i + 1)).toList();
    }

    @Test
    void passwords_areLongRandomAndNeedNoQuoting() {
        String a = EmbeddedAccess.newPassword();
        String b = EmbeddedAccess.newPassword();

        assertEquals(43, a.length());
        assertTrue(a.matches("[A-Za-z0-9_-]{43}"), a);
        assertNotEquals(a, b);
        assertTrue(EmbeddedAccess.wellFormed(a));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "x' OR '1'='1 padding padding padding | false",
            "short                                | false",
            "abcdefghijklmnopqrstuvwxyzABCDEFGH  | true",
    })
    void wellFormed_acceptsOnlyWhatNewPasswordMakes(String password, boolean expected) {
        assertEquals(expected, EmbeddedAccess.wellFormed(password.strip()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/tmp/run/state/pgsocket | true",
            "/tmp/a,b/state/pgsocket | false",
            "/tmp/a b/state/pgsocket | false",
            "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/pgsocket | false",
    })
    void theSocketStaysInTheStateDirectory_unlessItsPathCannotBeASocketDirectory(String dir, boolean kept) {
        Optional<Path> chosen = EmbeddedAccess.socketDirectory(Path.of(dir));

        assertEquals(kept ? Optional.of(Path.of(dir)) : Optional.empty(), chosen);
    }
}
