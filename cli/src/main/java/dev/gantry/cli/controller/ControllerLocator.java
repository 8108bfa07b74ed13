package dev.gantry.cli.controller;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the controller's address, first match wins:
 * <ol>
 *   <li>the GANTRY_CONTROLLER environment variable ("host:port");</li>
 *   <li>{@code $GANTRY_RUN_DIR/controller.addr};</li>
 *   <li>{@code .gantry/controller.addr} in the current directory or any parent;</li>
 *   <li>{@code ${XDG_STATE_HOME:-$HOME/.local/state}/gantry/controller.addr}.</li>
 * </ol>
 * An address file holds "host:port" and a newline; the local-cluster launcher writes the last two.
 *
 * @param environment the process environment
 * @param workingDirectory the current directory, absolute
 */
public record ControllerLocator(Map<String, String> environment, Path workingDirectory) {

    /** The name of the address file. */
    public static final String ADDRESS_FILE = "controller.addr";

    /**
     * The configured address.
     *
     * @throws ControllerNotFoundException when none is configured, or a configured one is malformed
     */
    public ControllerAddress locate() throws ControllerNotFoundException {
        return locateAll().get(0);
    }

    /**
     * Every configured address, in order: GANTRY_CONTROLLER's comma-separated ones, or an address file's lines (a
     * controller and its standby).
     *
     * @throws ControllerNotFoundException when none is configured, or a configured one is malformed
     */
    public java.util.List<ControllerAddress> locateAll() throws ControllerNotFoundException {
        String fromEnv = environment.get("GANTRY_CONTROLLER");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return parse(fromEnv, "GANTRY_CONTROLLER");
        }
        Optional<Path> file = addressFile();
        if (file.isEmpty()) {
            throw new ControllerNotFoundException(ControllerNotFoundException.NOT_CONFIGURED);
        }
        String text;
        try {
            text = Files.readString(file.get(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ControllerNotFoundException("cannot read " + file.get() + ": " + e.getMessage());
        }
        return parse(text, file.get().toString());
    }

    /** The address file that applies, if any (GANTRY_CONTROLLER aside). */
    Optional<Path> addressFile() {
        String runDir = environment.get("GANTRY_RUN_DIR");
        if (runDir != null && !runDir.isBlank()) {
            Path p = workingDirectory.resolve(runDir).resolve(ADDRESS_FILE);
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        for (Path dir = workingDirectory; dir != null; dir = dir.getParent()) {
            Path p = dir.resolve(".gantry").resolve(ADDRESS_FILE);
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        Path stateHome = stateHome();
        if (stateHome != null) {
            Path p = stateHome.resolve("gantry").resolve(ADDRESS_FILE);
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private Path stateHome() {
        String xdg = environment.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg);
        }
        String home = environment.get("HOME");
        return home == null || home.isBlank() ? null : Path.of(home, ".local", "state");
    }

    private static java.util.List<ControllerAddress> parse(String text, String source) throws ControllerNotFoundException {
        try {
            java.util.List<ControllerAddress> all = new java.util.ArrayList<>();
            for (String part : text.split("[,\n]")) {
                if (!part.isBlank()) {
                    all.add(ControllerAddress.parse(part));
                }
            }
            if (all.isEmpty()) {
                throw new IllegalArgumentException("no address");
            }
            return java.util.List.copyOf(all);
        } catch (IllegalArgumentException e) {
            throw new ControllerNotFoundException("invalid controller address in " + source + ": " + e.getMessage());
        }
    }
}
