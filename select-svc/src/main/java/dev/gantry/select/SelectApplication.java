package dev.gantry.select;

import dev.gantry.common.tls.TlsConfigurationException;
import io.micronaut.context.env.Environment;
import io.micronaut.runtime.Micronaut;

/**
 * select-svc: follows scheduler-svc's event stream and answers where pending jobs fit (Plan, WillRun). Missing or
 * wrong TLS files (GANTRY_TLS_*) stop it with one line naming the variable and exit status 2.
 */
public final class SelectApplication {
    private SelectApplication() {}

    public static void main(String[] args) {
        new Startup().args(args).mainClass(SelectApplication.class).banner(false).start();
    }

    /** Micronaut's start-up, except that a TLS configuration error is reported plainly instead of as a stack trace. */
    private static final class Startup extends Micronaut {
        @Override
        protected void handleStartupException(Environment environment, Throwable exception) {
            for (Throwable t = exception; t != null; t = t.getCause()) {
                if (t instanceof TlsConfigurationException tls) {
                    System.err.println("select-svc: cannot start: " + tls.getMessage());
                    System.exit(2);
                }
            }
            super.handleStartupException(environment, exception);
        }
    }
}
