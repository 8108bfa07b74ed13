package dev.gantry.cli.cluster;

import dev.gantry.cli.supervision.ServiceWatch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** What the supervisor knows, saved as supervisor.properties in the run directory for {@code gantry status}. */
record SupervisorState(long pid, List<ServiceWatch> services) {

    static final String FILE = "supervisor.properties";

    void save(Path runDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(pid));
        List<String> names = new ArrayList<>();
        for (ServiceWatch w : services) {
            String k = w.name() + ".";
            names.add(w.name());
            p.setProperty(k + "state", w.state().name());
            p.setProperty(k + "pid", Long.toString(w.pid()));
            p.setProperty(k + "started", w.started().toString());
            p.setProperty(k + "restarts", Integer.toString(w.restarts()));
            p.setProperty(k + "inARow", Integer.toString(w.crashesInARow()));
            w.lastExit().ifPresent(e -> p.setProperty(k + "lastExit", e));
            w.lastExitAt().ifPresent(t -> p.setProperty(k + "lastExitAt", t.toString()));
            w.restartAt().ifPresent(t -> p.setProperty(k + "restartAt", t.toString()));
        }
        p.setProperty("services", String.join(",", names));
        PropertiesFile.store(runDir.resolve(FILE), p, "Gantry local cluster: written by its supervisor, read by gantry status");
    }

    static Optional<SupervisorState> load(Path runDir) throws IOException {
        Optional<Properties> stored = PropertiesFile.load(runDir.resolve(FILE));
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Properties p = stored.get();
        List<ServiceWatch> services = new ArrayList<>();
        for (String name : p.getProperty("services", "").split(",")) {
            if (name.isBlank()) {
                continue;
            }
            String k = name + ".";
            services.add(new ServiceWatch(name, ServiceWatch.State.valueOf(p.getProperty(k + "state")),
                    Long.parseLong(p.getProperty(k + "pid")), Instant.parse(p.getProperty(k + "started")),
                    Integer.parseInt(p.getProperty(k + "restarts")), Integer.parseInt(p.getProperty(k + "inARow")),
                    Optional.ofNullable(p.getProperty(k + "lastExit")),
                    Optional.ofNullable(p.getProperty(k + "lastExitAt")).map(Instant::parse),
                    Optional.ofNullable(p.getProperty(k + "restartAt")).map(Instant::parse)));
        }
        return Optional.of(new SupervisorState(Long.parseLong(p.getProperty("pid", "0")), services));
    }

    Optional<ServiceWatch> of(String name) {
        return services.stream().filter(w -> w.name().equals(name)).findFirst();
    }
}
