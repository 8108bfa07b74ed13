package dev.gantry.cli.cluster;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigException;
import dev.gantry.common.config.ConfigParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gantry up|down|status|restart}: the local cluster; {@code gantry certs}: service certificates for other clusters. */
@Command(name = "gantry", mixinStandardHelpOptions = true, version = "gantry 0.1.0",
        description = "Runs a Gantry cluster on this machine: every service on loopback, one node agent per NodeName.",
        subcommands = {GantryCommand.Up.class, GantryCommand.Down.class, GantryCommand.Status.class,
            GantryCommand.Restart.class, GantryCommand.Supervise.class, CertsCommand.class})
public final class GantryCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    static Path home() {
        return Path.of(System.getProperty("gantry.home", ".")).toAbsolutePath().normalize();
    }

    abstract static class RunDirOption {
        @Option(names = "--run-dir", description = "Logs and state (default: .gantry in the current directory, or $GANTRY_RUN_DIR).")
        Path runDir;

        Path runDir() {
            if (runDir != null) {
                return runDir;
            }
            String env = System.getenv("GANTRY_RUN_DIR");
            return env != null && !env.isBlank() ? Path.of(env) : Path.of(".gantry");
        }

        LocalCluster cluster() {
            return new LocalCluster(home(), runDir(), System.out, System.err);
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Start the local cluster and wait until every service answers.")
    static final class Up extends RunDirOption implements Callable<Integer> {
        @Option(names = {"-c", "--config"}, description = "Cluster config in slurm.conf syntax (default: conf/gantry.conf).")
        Path config;

        @Option(names = "--timeout", defaultValue = "180", description = "Seconds to wait for the services (default: ${DEFAULT-VALUE}).")
        long timeoutSeconds;

        @Option(names = "--public-tls", description = "Serve the client API over TLS too (the commands verify it with the "
                + "cluster CA, copied beside controller.addr as controller-ca.crt). Off by default.")
        boolean publicTls;

        @Override
        public Integer call() throws Exception {
            Path file = config != null ? config : home().resolve("conf/gantry.conf");
            if (!Files.isReadable(file)) {
                System.err.println("gantry: cannot read config file " + file);
                return 1;
            }
            ClusterConfig parsed;
            try {
                parsed = ConfigParser.parse(file);
            } catch (ConfigException e) {
                e.problems().forEach(p -> System.err.println("gantry: " + p));
                return 1;
            }
            parsed.warnings().forEach(w -> System.err.println("gantry: warning: " + w));
            if (parsed.nodes().isEmpty()) {
                System.err.println("gantry: " + file + ": no NodeName= line: the cluster needs at least one node");
                return 1;
            }
            return cluster().up(parsed, Duration.ofSeconds(timeoutSeconds), publicTls);
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Cancel unfinished jobs and stop every process gantry up started.")
    static final class Down extends RunDirOption implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return cluster().down(Duration.ofSeconds(30));
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Stop one service and start it again with the same ports (e.g. restart scheduler).")
    static final class Restart extends RunDirOption implements Callable<Integer> {
        @CommandLine.Parameters(paramLabel = "SERVICE", description = "scheduler, select, gang, or agent-NODE")
        String service;

        @Override
        public Integer call() throws Exception {
            return cluster().restart(service, Duration.ofSeconds(120));
        }
    }

    /** The supervisor's own process, which {@code gantry up} starts (not for people to run). */
    @Command(name = "supervise", hidden = true, description = "Run the local cluster's supervisor (gantry up starts it).")
    static final class Supervise extends RunDirOption implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return new Supervisor(runDir().toAbsolutePath(), java.time.InstantSource.system(),
                    dev.gantry.cli.supervision.RestartPolicy.DEFAULT, System.out).run();
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Show what runs (exit 0: all serving, 1: some not "
            + "or the supervisor is gone, 3: no cluster).")
    static final class Status extends RunDirOption implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return cluster().status();
        }
    }
}
