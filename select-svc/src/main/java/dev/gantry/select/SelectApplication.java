package dev.gantry.select;

import dev.gantry.common.service.ServiceStartup;
import dev.gantry.common.tls.TlsConfigurationException;

/**
 * select-svc: follows scheduler-svc's event stream and answers where pending jobs fit (Plan, WillRun). Missing or
 * wrong TLS files (GANTRY_TLS_*) stop it with one line naming the variable and exit status 2.
 */
public final class SelectApplication {
    private SelectApplication() {}

    public static void main(String[] args) {
        ServiceStartup.start("select-svc", SelectApplication.class, args, TlsConfigurationException.class);
    }
}
