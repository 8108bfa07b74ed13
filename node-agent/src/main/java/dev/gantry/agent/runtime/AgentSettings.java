package dev.gantry.agent.runtime;

import dev.gantry.agent.node.Hardware;
import dev.gantry.common.credential.CredentialKeys;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;

/**
 * The agent's validated configuration. Each value comes from an environment variable (named in error
 * messages) through application.yml's {@code gantry.agent.*} keys, so either may set it.
 *
 * @param schedulerAddress scheduler-svc's internal port (AgentHub), reached over mutual TLS
 * @param advertiseAddress host:port the controller (and peer agents) reach this agent's NodeAgent service at: its
 *     internal port (GANTRY_INTERNAL_PORT), mutual TLS
 * @param stepAddress host:port srun reaches this agent's StepAgent service at: its public gRPC port
 * @param spoolDir where job scripts are written
 */
public record AgentSettings(
        String nodeName,
        String schedulerAddress,
        PublicKey credentialKey,
        String advertiseAddress,
        String stepAddress,
        Path spoolDir,
        Hardware.Emulation emulation) {

    /** The raw values, as configured; empty strings for unset ones. */
    public record Raw(
            String nodeName,
            String schedulerAddress,
            String credentialKeyFile,
            String advertiseAddress,
            String spoolDir,
            String bindHost,
            int grpcPort,
            String cpus,
            String sockets,
            String coresPerSocket,
            String threadsPerCore,
            String memoryMb,
            int internalPort,
            String stepAddress) {}

    /** @throws AgentConfigurationException naming the variable and what is wrong with it */
    public static AgentSettings from(Raw raw) {
        String node = raw.nodeName().trim();
        if (node.isEmpty()) {
            throw new AgentConfigurationException("GANTRY_NODE_NAME is not set: the agent must know the NodeName it runs as");
        }
        if (!node.matches("[A-Za-z0-9._-]+")) {
            throw new AgentConfigurationException("GANTRY_NODE_NAME='" + node + "': a node name has letters, digits, '.', '_' and '-' only");
        }
        String scheduler = raw.schedulerAddress().trim();
        if (java.util.Arrays.stream(scheduler.split(",")).map(String::trim).anyMatch(a -> !isHostPort(a))) {
            throw new AgentConfigurationException("GANTRY_SCHEDULER_ADDRESS='" + scheduler
                    + "': expected host:port, or several (the controller and its standby) separated by commas");
        }
        if (raw.credentialKeyFile().isBlank()) {
            throw new AgentConfigurationException("GANTRY_CRED_PUBLIC_KEY is not set: the agent needs the controller's Ed25519 public key (PEM) to check launch credentials");
        }
        Path keyFile = Path.of(raw.credentialKeyFile().trim());
        if (!Files.isRegularFile(keyFile) || !Files.isReadable(keyFile)) {
            String why = !Files.exists(keyFile) ? "No such file or directory" : Files.isDirectory(keyFile) ? "Is a directory" : "Permission denied";
            throw new AgentConfigurationException("GANTRY_CRED_PUBLIC_KEY=" + keyFile + ": " + why);
        }
        PublicKey key;
        try {
            key = CredentialKeys.readPublic(keyFile);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            throw new AgentConfigurationException("GANTRY_CRED_PUBLIC_KEY: " + e.getMessage(), e);
        }
        String advertise = raw.advertiseAddress().isBlank()
                ? advertisedHost(raw.bindHost()) + ":" + raw.internalPort()
                : raw.advertiseAddress().trim();
        if (!isHostPort(advertise)) {
            throw new AgentConfigurationException("GANTRY_AGENT_ADVERTISE_ADDRESS='" + advertise + "': expected host:port");
        }
        // srun reaches the step service on the public port, at the host the controller reaches the agent at
        String step = raw.stepAddress().isBlank()
                ? advertise.substring(0, advertise.lastIndexOf(':')) + ":" + raw.grpcPort()
                : raw.stepAddress().trim();
        if (!isHostPort(step)) {
            throw new AgentConfigurationException("GANTRY_AGENT_STEP_ADDRESS='" + step + "': expected host:port");
        }
        Path spool = raw.spoolDir().isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"), "gantry-agent-" + node)
                : Path.of(raw.spoolDir().trim());
        Hardware.Emulation emulation = new Hardware.Emulation(
                positiveInt("GANTRY_NODE_CPUS", raw.cpus()),
                positiveInt("GANTRY_NODE_SOCKETS", raw.sockets()),
                positiveInt("GANTRY_NODE_CORES_PER_SOCKET", raw.coresPerSocket()),
                positiveInt("GANTRY_NODE_THREADS_PER_CORE", raw.threadsPerCore()),
                positiveLong("GANTRY_NODE_MEMORY_MB", raw.memoryMb()));
        return new AgentSettings(node, scheduler, key, advertise, step, spool.toAbsolutePath(), emulation);
    }

    private static String advertisedHost(String bindHost) {
        String host = bindHost == null || bindHost.isBlank() ? "127.0.0.1" : bindHost.trim();
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                throw new AgentConfigurationException("GANTRY_BIND_HOST=" + host + " and this host has no resolvable name: set GANTRY_AGENT_ADVERTISE_ADDRESS", e);
            }
        }
        return host;
    }

    private static boolean isHostPort(String s) {
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            return false;
        }
        try {
            int port = Integer.parseInt(s.substring(colon + 1));
            return port > 0 && port < 65536;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Integer positiveInt(String variable, String value) {
        Long v = positiveLong(variable, value);
        if (v == null) {
            return null;
        }
        if (v > Integer.MAX_VALUE) {
            throw new AgentConfigurationException(variable + "=" + value + ": too large");
        }
        return v.intValue();
    }

    private static Long positiveLong(String variable, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            long v = Long.parseLong(value.trim());
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new AgentConfigurationException(variable + "=" + value + ": expected a positive integer");
    }
}
