package dev.gantry.cli.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What {@code gantry up} started, saved in the run directory as {@code cluster.properties} so that
 * {@code gantry down} and {@code gantry status} can find it.
 */
record StartedCluster(String controller, List<Service> services) {

    /** One started process, with what it takes to start it again. */
    record Service(String name, long pid, int grpcPort, int httpPort, Path log, List<String> command,
            java.util.Map<String, String> environment) {
        String grpcAddress() {
            return "127.0.0.1:" + grpcPort;
        }

        Service withPid(long newPid) {
            return new Service(name, newPid, grpcPort, httpPort, log, command, environment);
        }
    }

    static final String FILE = "cluster.properties";

    void save(Path runDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("controller", controller);
        List<String> names = new ArrayList<>();
        for (Service s : services) {
            names.add(s.name);
            p.setProperty(s.name + ".pid", Long.toString(s.pid));
            p.setProperty(s.name + ".grpc", Integer.toString(s.grpcPort));
            p.setProperty(s.name + ".http", Integer.toString(s.httpPort));
            p.setProperty(s.name + ".log", s.log.toString());
            p.setProperty(s.name + ".command", String.join("\t", s.command));
            s.environment.forEach((k, v) -> p.setProperty(s.name + ".env." + k, v));
        }
        p.setProperty("services", String.join(",", names));
        PropertiesFile.store(runDir.resolve(FILE), p, "Gantry local cluster: written by gantry up, read by gantry down/status");
    }

    static Optional<StartedCluster> load(Path runDir) throws IOException {
        Optional<Properties> stored = PropertiesFile.load(runDir.resolve(FILE));
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Properties p = stored.get();
        List<Service> services = new ArrayList<>();
        for (String name : p.getProperty("services", "").split(",")) {
            if (name.isBlank()) {
                continue;
            }
            java.util.Map<String, String> env = new java.util.TreeMap<>();
            String prefix = name + ".env.";
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith(prefix)) {
                    env.put(key.substring(prefix.length()), p.getProperty(key));
                }
            }
            services.add(new Service(name, Long.parseLong(p.getProperty(name + ".pid")),
                    Integer.parseInt(p.getProperty(name + ".grpc")), Integer.parseInt(p.getProperty(name + ".http")),
                    Path.of(p.getProperty(name + ".log")), List.of(p.getProperty(name + ".command", "").split("\t")), env));
        }
        return Optional.of(new StartedCluster(p.getProperty("controller", ""), services));
    }
}
