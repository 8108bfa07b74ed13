package dev.gantry.cli.cluster;

import dev.gantry.cli.supervision.ExitStatus;
import dev.gantry.cli.supervision.RestartPolicy;
import dev.gantry.cli.supervision.ServiceWatch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The local cluster's supervisor: a process of its own ({@code gantry supervise}, started detached by {@code gantry
 * up}, log in logs/supervisor.log, pid in supervisor.pid) that starts every service of cluster.properties as its child,
 * sees each exit with its status, and starts a crashed service again as {@link RestartPolicy} says; it writes the new
 * pid to cluster.properties and what it knows to supervisor.properties ({@link SupervisorState}, read by {@code gantry
 * status}). {@code gantry restart} and {@code gantry down} ask it through request files in supervisor/ ({@link
 * SupervisorLink}), so a stop they asked for is not taken for a crash. The services run in their own sessions and
 * write to their own logs: if the supervisor dies they keep running, and {@code down} still stops them by their pids.
 * Single-threaded: one loop every {@link #TICK} reaps exits, starts due restarts and answers requests.
 */
final class Supervisor {

    static final Duration TICK = Duration.ofMillis(100);
    /** How long a stop asked for waits for SIGTERM before SIGKILL. */
    static final Duration STOP_LIMIT = Duration.ofSeconds(30);

    private final Path runDir;
    private final InstantSource clock;
    private final RestartPolicy policy;
    private final PrintStream log;
    private final Map<String, Watched> services = new LinkedHashMap<>();

    /** A service: how to start it, what the policy knows of it, and its process (a child when this supervisor started it). */
    private static final class Watched {
        StartedCluster.Service spec;
        ServiceWatch watch;
        ProcessHandle handle;
        Optional<Process> child = Optional.empty();
    }

    Supervisor(Path runDir, InstantSource clock, RestartPolicy policy, PrintStream log) {
        this.runDir = runDir.toAbsolutePath().normalize();
        this.clock = clock;
        this.policy = policy;
        this.log = log;
    }

    /** Supervises until {@code gantry down} asks it to stop or cluster.properties is gone; returns the exit status. */
    int run() throws IOException, InterruptedException {
        var loaded = StartedCluster.load(runDir);
        if (loaded.isEmpty()) {
            log("no cluster.properties in " + runDir + ": nothing to supervise");
            return 1;
        }
        Files.writeString(SupervisorLink.pidFile(runDir), ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
        // only the cluster's user may ask anything (a restart, a stop) of the supervisor
        dev.gantry.common.files.PrivateFiles.ownerOnlyDirectory(SupervisorLink.requests(runDir).getParent());
        dev.gantry.common.files.PrivateFiles.ownerOnlyDirectory(SupervisorLink.requests(runDir));
        String controller = loaded.get().controller();
        for (StartedCluster.Service s : loaded.get().services()) {
            Watched w = new Watched();
            w.spec = s;
            Optional<ProcessHandle> running = s.pid() > 0 ? ProcessHandle.of(s.pid()).filter(ProcessHandle::isAlive) : Optional.empty();
            if (running.isPresent()) { // started by an earlier supervisor or by gantry restart without one: watched, not a child
                w.handle = running.get();
                log(s.name() + ": watching pid " + s.pid() + " (not a child: its exit status will not be known)");
            } else {
                Process p = LocalCluster.launch(s);
                w.child = Optional.of(p);
                w.handle = p.toHandle();
                w.spec = s.withPid(p.pid());
                log(s.name() + ": started as pid " + p.pid());
            }
            w.watch = ServiceWatch.started(s.name(), w.handle.pid(), clock.instant());
            services.put(s.name(), w);
        }
        save(controller);
        log("supervising " + services.size() + " service(s); restart back-off " + policy.initial().toMillis() + " ms doubling to "
                + policy.max().toSeconds() + " s, reset after " + policy.stableAfter().toSeconds() + " s of running, given up after "
                + policy.giveUpAfter() + " crashes in a row");
        while (true) {
            if (!Files.exists(runDir.resolve(StartedCluster.FILE))) {
                log("cluster.properties is gone (the cluster was brought down without me): stopping");
                return 0;
            }
            try {
                if (!tick(controller)) {
                    return 0;
                }
            } catch (IOException | RuntimeException e) {
                // a state file that could not be written, a request that could not be read: the next tick tries again
                log("error: " + e);
            }
            Thread.sleep(TICK.toMillis());
        }
    }

    /** Starts {@code w}'s service as this process's child, and records the child and its pid. */
    private static Process launch(Watched w) throws IOException {
        Process p = LocalCluster.launch(w.spec);
        w.child = Optional.of(p);
        w.handle = p.toHandle();
        w.spec = w.spec.withPid(p.pid());
        return p;
    }

    /** One round: exits reaped, due restarts made, requests answered; false after a stop request. */
    private boolean tick(String controller) throws IOException, InterruptedException {
        boolean changed = false;
        for (Watched w : services.values()) {
            changed |= reap(w);
            if (w.watch.due(clock.instant())) {
                try {
                    Process p = launch(w);
                    w.watch = w.watch.restarted(p.pid(), clock.instant());
                    log(w.spec.name() + ": restarted as pid " + p.pid() + " (restart " + w.watch.restarts() + ")");
                } catch (IOException e) {
                    w.watch = w.watch.notStarted(e.getMessage(), clock.instant(), policy);
                    log(w.spec.name() + ": could not start (" + e.getMessage() + "): " + w.watch.state().word());
                }
                changed = true;
            }
        }
        if (changed) {
            save(controller);
        }
        return answerRequests(controller);
    }

    /** Notes an exit of {@code w}'s process; true when something changed. */
    private boolean reap(Watched w) {
        ServiceWatch.State s = w.watch.state();
        if ((s != ServiceWatch.State.RUNNING && s != ServiceWatch.State.STOPPING) || w.handle.isAlive()) {
            return false;
        }
        ExitStatus status = w.child.map(p -> {
            try {
                return ExitStatus.of(p.waitFor());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitStatus.unknown();
            }
        }).orElse(ExitStatus.unknown());
        w.watch = w.watch.exited(status, clock.instant(), policy);
        boolean aborted = !status.known() || status.code() == 128 + 6; // HotSpot ends a fatal error with abort(): SIGABRT
        (aborted ? ServiceArchives.discardAfterCrash(w.spec, LocalCluster.tail(w.spec.log(), 60)) : Optional.<Path>empty()).ifPresent(archive ->
                log(w.spec.name() + " died of a JVM fatal error with class archive " + archive + ": archive deleted, the next start runs without it"));
        String next = switch (w.watch.state()) {
            case RESTARTING -> "restart in " + Duration.between(clock.instant(), w.watch.restartAt().orElseThrow()).toMillis() + " ms";
            case GIVEN_UP -> "given up after " + w.watch.crashesInARow() + " crashes in a row (bin/gantry restart "
                    + w.spec.name() + " tries again)";
            default -> "stopped as asked";
        };
        log(w.spec.name() + " (pid " + w.handle.pid() + ") " + status.describe() + ": " + next);
        return true;
    }

    /** Answers the requests waiting in supervisor/requests; false after a stop request. */
    private boolean answerRequests(String controller) throws IOException, InterruptedException {
        List<Path> waiting;
        try (Stream<Path> files = Files.list(SupervisorLink.requests(runDir))) {
            waiting = files.filter(f -> f.getFileName().toString().endsWith(".req")).sorted().toList();
        }
        for (Path request : waiting) {
            String text = Files.readString(request, StandardCharsets.UTF_8).trim();
            String answer;
            boolean stop = false;
            String[] words = text.split(" ");
            if (words[0].equals("stop")) {
                services.values().forEach(w -> w.watch = w.watch.stopping());
                save(controller);
                log("stop asked (gantry down): no service is restarted any more; exiting");
                answer = "ok";
                stop = true;
            } else if (words[0].equals("restart") && words.length == 2 && services.containsKey(words[1])) {
                answer = restart(services.get(words[1]));
                save(controller);
            } else {
                answer = "error: unknown request '" + text + "' (services: " + String.join(", ", services.keySet()) + ")";
            }
            Path done = request.resolveSibling(request.getFileName().toString().replace(".req", ".done"));
            Path tmp = request.resolveSibling(request.getFileName() + ".tmp");
            Files.writeString(tmp, answer + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(request);
            if (stop) {
                return false;
            }
        }
        return true;
    }

    /** How long a new scheduler-svc may take to reach the handover before the old one is stopped anyway. */
    static final Duration HANDOVER_LIMIT = Duration.ofSeconds(30);

    /**
     * gantry restart: SIGTERM (SIGKILL after {@link #STOP_LIMIT}), then started again; "ok PID" or "error: …". A
     * scheduler-svc is {@link #handOver handed over} instead: its successor starts first.
     */
    private String restart(Watched w) throws InterruptedException {
        w.watch = w.watch.stopping();
        if (w.handle.isAlive() && w.spec.name().startsWith("scheduler")) {
            try {
                return handOver(w);
            } catch (IOException e) {
                log(w.spec.name() + ": cannot start its successor (" + e.getMessage() + "): stopped and started instead");
            }
        }
        if (w.handle.isAlive()) {
            stopAsAsked(w, "");
        } else if (w.watch.state() == ServiceWatch.State.STOPPING) {
            reap(w);
        }
        try {
            Process p = launch(w);
            w.watch = w.watch.startedAsAsked(p.pid(), clock.instant());
            log(w.spec.name() + ": started again as asked, pid " + p.pid());
            return "ok " + p.pid();
        } catch (IOException e) {
            log(w.spec.name() + ": cannot start: " + e.getMessage());
            return "error: cannot start " + w.spec.name() + ": " + e.getMessage();
        }
    }

    /**
     * Restarts scheduler-svc with its successor started first (GANTRY_HANDOVER_PID, GANTRY_HANDOVER_FILE): the new JVM
     * does its start-up (the JVM, Micronaut: most of a start) while the old one still serves, says so by creating the
     * handover file, and waits there for the old one's exit before it opens the database. Only then is the old one
     * stopped (SIGTERM, as any graceful stop): the cluster goes without a controller for the old one's stop and the new
     * one's database and state load, not for a whole start.
     */
    private String handOver(Watched w) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path ready = SupervisorLink.requests(runDir).resolveSibling(w.spec.name() + ".handover");
        Files.deleteIfExists(ready);
        java.util.Map<String, String> env = new java.util.TreeMap<>(w.spec.environment());
        env.put("GANTRY_HANDOVER_PID", Long.toString(w.handle.pid()));
        env.put("GANTRY_HANDOVER_FILE", ready.toString());
        Process next = LocalCluster.launch(new StartedCluster.Service(w.spec.name(), 0, w.spec.grpcPort(), w.spec.httpPort(),
                w.spec.log(), w.spec.command(), env));
        log(w.spec.name() + ": successor started as pid " + next.pid() + "; pid " + w.handle.pid() + " serves until it is ready");
        long limit = System.nanoTime() + HANDOVER_LIMIT.toNanos();
        while (!Files.exists(ready) && next.isAlive() && System.nanoTime() < limit) {
            Thread.sleep(50);
        }
        if (!next.isAlive() && !Files.exists(ready)) { // it could not start: the old one goes on serving
            int status = next.waitFor();
            w.watch = w.watch.startedAsAsked(w.handle.pid(), clock.instant());
            log(w.spec.name() + ": successor pid " + next.pid() + " exited with status " + status + " before it was ready; pid "
                    + w.handle.pid() + " goes on serving");
            return "error: the new " + w.spec.name() + " exited with status " + status + " before it was ready (see " + w.spec.log()
                    + "); the running one was left running";
        }
        log(w.spec.name() + ": successor " + (Files.exists(ready) ? "ready" : "not ready in time")
                + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms: stopping pid " + w.handle.pid());
        stopAsAsked(w, " (pid " + w.handle.pid() + "; its successor takes over)");
        Files.deleteIfExists(ready);
        w.child = Optional.of(next);
        w.handle = next.toHandle();
        w.spec = w.spec.withPid(next.pid());
        w.watch = w.watch.startedAsAsked(next.pid(), clock.instant());
        return "ok " + next.pid();
    }

    /** Stops {@code w}'s running process: SIGTERM, SIGKILL after {@link #STOP_LIMIT}; its exit reaped and logged. */
    private void stopAsAsked(Watched w, String note) throws InterruptedException {
        long t0 = System.nanoTime();
        w.handle.destroy();
        try {
            w.handle.onExit().get(STOP_LIMIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            log(w.spec.name() + " (pid " + w.handle.pid() + ") did not stop within " + STOP_LIMIT.toSeconds() + " s of SIGTERM: SIGKILL");
            w.handle.destroyForcibly();
            w.handle.onExit().join();
        }
        reap(w);
        log(w.spec.name() + ": stopped as asked in " + (System.nanoTime() - t0) / 1_000_000 + " ms" + note);
    }

    /** cluster.properties with the current pids, and supervisor.properties. */
    private void save(String controller) throws IOException {
        List<StartedCluster.Service> specs = new ArrayList<>();
        List<ServiceWatch> watches = new ArrayList<>();
        for (Watched w : services.values()) {
            specs.add(w.spec);
            watches.add(w.watch);
        }
        if (Files.exists(runDir.resolve(StartedCluster.FILE))) { // gantry down removes it: not written back
            new StartedCluster(controller, specs).save(runDir);
        }
        new SupervisorState(ProcessHandle.current().pid(), watches).save(runDir);
    }

    private void log(String line) {
        log.println(clock.instant() + " " + line);
        log.flush();
    }
}
