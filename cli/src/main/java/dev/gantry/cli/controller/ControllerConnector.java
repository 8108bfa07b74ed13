package dev.gantry.cli.controller;

import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Opens a channel to the controller. Commands receive one, so tests can hand them an in-process channel. */
@FunctionalInterface
public interface ControllerConnector {

    /**
     * A new channel to the controller; the caller shuts it down.
     *
     * @throws ControllerNotFoundException when no controller address is configured
     */
    ManagedChannel connect() throws ControllerNotFoundException;

    /**
     * Connects to the address {@link ControllerLocator} finds for this environment and directory. The caller's
     * credential is fetched from now on ({@link CallerCredential#prefetch}), while the command starts.
     */
    static ControllerConnector locating(Map<String, String> environment, Path workingDirectory) {
        ControllerLocator locator = new ControllerLocator(environment, workingDirectory);
        Optional<Path> clusterDir = locator.addressFile().map(Path::getParent);
        CallerCredential credential = new CallerCredential(environment, clusterDir).prefetch();
        return () -> {
            java.util.List<ControllerAddress> address = locator.locateAll();
            // a local cluster's controller-ca.crt vouches for the controller its controller.addr names, not for another
            boolean fromFile = environment.getOrDefault("GANTRY_CONTROLLER", "").isBlank();
            return ControllerChannels.open(address, credential,
                    ControllerChannels.controllerCa(environment, fromFile ? clusterDir : Optional.empty()));
        };
    }
}
