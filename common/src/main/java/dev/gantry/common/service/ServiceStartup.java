package dev.gantry.common.service;

import io.micronaut.context.env.Environment;
import io.micronaut.runtime.Micronaut;
import java.util.List;

/**
 * A service's start-up: Micronaut's, except that a configuration error (missing or wrong TLS files, a bad agent
 * setting) stops it with one line on stderr, {@code <service>: cannot start: <what is wrong>}, and exit status 2,
 * instead of a stack trace. Used by each service's {@code main}; Micronaut is an optional dependency of common, present
 * in the services only.
 */
public final class ServiceStartup extends Micronaut {

    private final String service;
    private final List<Class<? extends Exception>> plainErrors;

    private ServiceStartup(String service, List<Class<? extends Exception>> plainErrors) {
        this.service = service;
        this.plainErrors = plainErrors;
    }

    /**
     * Starts the application context of {@code mainClass}.
     *
     * @param plainErrors the configuration errors reported as one line: an exception of one of these types anywhere in
     *                    the start-up failure's causes
     */
    @SafeVarargs
    public static void start(String service, Class<?> mainClass, String[] args, Class<? extends Exception>... plainErrors) {
        new ServiceStartup(service, List.of(plainErrors)).args(args).mainClass(mainClass).banner(false).start();
    }

    @Override
    protected void handleStartupException(Environment environment, Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            Throwable cause = t;
            if (plainErrors.stream().anyMatch(type -> type.isInstance(cause))) {
                System.err.println(service + ": cannot start: " + t.getMessage());
                System.exit(2);
            }
        }
        super.handleStartupException(environment, exception);
    }
}
