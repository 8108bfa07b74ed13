package dev.gantry.cli.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControllerLocatorTest {

    @TempDir
    Path root;

    private Path home;
    private Path project;
    private Path deep;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void layout() throws IOException {
        home = Files.createDirectories(root.resolve("home"));
        project = Files.createDirectories(root.resolve("work/project"));
        deep = Files.createDirectories(project.resolve("src/main"));
        env.put("HOME", home.toString());
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private ControllerAddress locate(Path cwd) throws ControllerNotFoundException {
        return new ControllerLocator(env, cwd).locate();
    }

    @Test
    void theEnvironmentVariableWinsOverEveryFile() throws Exception {
        write(project.resolve(".gantry/controller.addr"), "127.0.0.1:2000\n");
        env.put("GANTRY_CONTROLLER", "10.0.0.5:6817");
        assertEquals(new ControllerAddress("10.0.0.5", 6817), locate(deep));
    }

    @Test
    void theRunDirectoryComesNext() throws Exception {
        Path run = root.resolve("run");
        write(run.resolve("controller.addr"), "127.0.0.1:3000\n");
        write(project.resolve(".gantry/controller.addr"), "127.0.0.1:2000\n");
        env.put("GANTRY_RUN_DIR", run.toString());
        assertEquals(new ControllerAddress("127.0.0.1", 3000), locate(deep));
    }

    @Test
    void thenDotGantryInTheCurrentDirectoryOrAParent() throws Exception {
        write(project.resolve(".gantry/controller.addr"), "127.0.0.1:2000\n");
        write(home.resolve(".local/state/gantry/controller.addr"), "127.0.0.1:4000\n");
        assertEquals(new ControllerAddress("127.0.0.1", 2000), locate(deep));
        assertEquals(new ControllerAddress("127.0.0.1", 2000), locate(project));
    }

    @Test
    void thenTheStateHome() throws Exception {
        write(home.resolve(".local/state/gantry/controller.addr"), "localhost:4000\n");
        assertEquals(new ControllerAddress("localhost", 4000), locate(deep));
        Path xdg = root.resolve("xdg");
        write(xdg.resolve("gantry/controller.addr"), "localhost:5000");
        env.put("XDG_STATE_HOME", xdg.toString());
        assertEquals(new ControllerAddress("localhost", 5000), locate(deep));
    }

    @Test
    void nothingConfiguredSaysHowToFixIt() {
        ControllerNotFoundException e = assertThrows(ControllerNotFoundException.class, () -> locate(deep));
        assertEquals("cannot find the Gantry controller: set GANTRY_CONTROLLER=host:port "
                + "or start a local cluster with bin/gantry up", e.getMessage());
    }

    @Test
    void aMalformedAddressNamesWhereItCameFrom() throws Exception {
        write(project.resolve(".gantry/controller.addr"), "no-port-here\n");
        ControllerNotFoundException e = assertThrows(ControllerNotFoundException.class, () -> locate(deep));
        assertTrue(e.getMessage().startsWith("invalid controller address in " + project.resolve(".gantry/controller.addr")),
                e.getMessage());
    }

    @ParameterizedTest(name = "\"{0}\" is {1}:{2}")
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:6817    | 127.0.0.1 | 6817",
        "  host.example:1  | host.example | 1",
        "[::1]:50051       | ::1       | 50051",
    })
    void parsesHostAndPort(String text, String host, int port) {
        assertEquals(new ControllerAddress(host, port), ControllerAddress.parse(text));
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @CsvSource(delimiter = '|', value = {"host", "host:", ":80", "host:0", "host:70000", "host:http", "::1:80"})
    void refusesMalformedAddresses(String text) {
        assertThrows(IllegalArgumentException.class, () -> ControllerAddress.parse(text));
    }
}
