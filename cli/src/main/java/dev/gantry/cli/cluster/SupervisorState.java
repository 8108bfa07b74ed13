package dev.gantry.cli.cluster;

import dev.gantry.cli.supervision.ServiceWatch;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        Path tmp = runDir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "Gantry local cluster: written by its supervisor, read by gantry status");
        }
        Files.move(tmp, runDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static Optional<SupervisorState> load(Path runDir) throws IOException {
        Path f = runDir.resolve(FILE);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(r);
        }
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
