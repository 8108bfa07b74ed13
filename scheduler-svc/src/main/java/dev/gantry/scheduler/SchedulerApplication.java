package dev.gantry.scheduler;

import dev.gantry.common.config.ConfigException;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.service.ServiceStartup;
import dev.gantry.common.tls.TlsConfigurationException;
import java.nio.file.Path;

/**
 * scheduler-svc: the controller. The config file (GANTRY_CONFIG) is checked before anything starts, so a
 * broken config stops it with {@code file:line: key: what is wrong} and exit status 2; so do missing or wrong TLS files
 * (GANTRY_TLS_*), with the variable, the file and what is wrong.
 */
public final class SchedulerApplication {
    private SchedulerApplication() {}

    public static void main(String[] args) throws Exception {
        if ("true".equals(System.getenv("GANTRY_DATABASE_SERVER"))) { // the local cluster's database for two controllers
            DatabaseServerApplication.run();
            return;
        }
        String config = System.getenv().getOrDefault("GANTRY_CONFIG", System.getProperty("gantry.config", ""));
        if (config.isBlank()) {
            System.err.println("scheduler-svc: GANTRY_CONFIG is not set: give the path of the cluster config file");
            System.exit(2);
        }
        try {
            ConfigParser.parse(Path.of(config));
        } catch (ConfigException e) {
            e.problems().forEach(p -> System.err.println("scheduler-svc: " + p));
            System.exit(2);
        }
        ServiceStartup.start("scheduler-svc", SchedulerApplication.class, args, TlsConfigurationException.class);
    }
}
