package dev.gantry.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.node.Hardware;
import dev.gantry.common.credential.CredentialKeys;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AgentSettingsTest {

    @TempDir
    static Path tmp;

    static Path publicKey;

    @BeforeEach
    void keys() {
        if (publicKey == null) {
            publicKey = tmp.resolve("cred.pub");
            CredentialKeys.createIfMissing(tmp.resolve("cred.key"), publicKey);
        }
    }

    private static AgentSettings.Raw raw(UnaryOperator<String[]> change) {
        String[] v = {"n1", "127.0.0.1:6827", publicKey == null ? "" : publicKey.toString(), "", "", "127.0.0.1", "", "", "", "", "", ""};
        v = change.apply(v);
        return new AgentSettings.Raw(v[0], v[1], v[2], v[3], v[4], v[5], 6820, v[6], v[7], v[8], v[9], v[10], 6830, v[11]);
    }

    @Test
    void defaults_advertiseBindHostAndPorts_andSpoolUnderTmp() {
        AgentSettings s = AgentSettings.from(raw(v -> v));

        assertEquals("127.0.0.1:6830", s.advertiseAddress(), "NodeAgent: the internal port");
        assertEquals("127.0.0.1:6820", s.stepAddress(), "StepAgent: the public port");
        assertEquals(Path.of(System.getProperty("java.io.tmpdir"), "gantry-agent-n1").toAbsolutePath(), s.spoolDir());
        assertEquals(new Hardware.Emulation(null, null, null, null, null), s.emulation());
    }

    @Test
    void theStepAddress_followsTheAdvertisedHost_unlessSet() {
        assertEquals("10.1.2.3:6820", AgentSettings.from(raw(set(3, "10.1.2.3:6830"))).stepAddress());
        assertEquals("login:7000", AgentSettings.from(raw(set(11, "login:7000"))).stepAddress());
    }

    @Test
    void emulatedHardware_isParsed() {
        AgentSettings s = AgentSettings.from(raw(v -> {
            v[6] = "4";
            v[10] = "2048";
            return v;
        }));

        assertEquals(new Hardware.Emulation(4, null, null, null, 2048L), s.emulation());
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("no node name", set(0, ""), "GANTRY_NODE_NAME is not set"),
                Arguments.of("node name with a space", set(0, "n 1"), "GANTRY_NODE_NAME='n 1'"),
                Arguments.of("no key", set(2, ""), "GANTRY_CRED_PUBLIC_KEY is not set"),
                Arguments.of("missing key file", set(2, "/nonexistent/cred.pub"), "GANTRY_CRED_PUBLIC_KEY=/nonexistent/cred.pub: No such file or directory"),
                Arguments.of("key file is a directory", set(2, "/tmp"), "GANTRY_CRED_PUBLIC_KEY=/tmp: Is a directory"),
                Arguments.of("key file is not a key", set(2, "/proc/version"), "GANTRY_CRED_PUBLIC_KEY: /proc/version: expected a PEM block"),
                Arguments.of("scheduler without port", set(1, "localhost"), "GANTRY_SCHEDULER_ADDRESS='localhost'"),
                Arguments.of("bad advertise address", set(3, "host:99999"), "GANTRY_AGENT_ADVERTISE_ADDRESS"),
                Arguments.of("bad step address", set(11, "host"), "GANTRY_AGENT_STEP_ADDRESS='host': expected host:port"),
                Arguments.of("CPUs not a number", set(6, "four"), "GANTRY_NODE_CPUS=four: expected a positive integer"),
                Arguments.of("memory zero", set(10, "0"), "GANTRY_NODE_MEMORY_MB=0: expected a positive integer"));
    }

    private static UnaryOperator<String[]> set(int i, String value) {
        return v -> {
            v[i] = value;
            return v;
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badSetting_stopsStartUpNamingTheVariable(String name, UnaryOperator<String[]> change, String message) {
        AgentConfigurationException e = assertThrows(AgentConfigurationException.class, () -> AgentSettings.from(raw(change)));

        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
