package dev.gantry.gang;

import dev.gantry.common.service.ServiceStartup;
import dev.gantry.common.tls.TlsConfigurationException;

/**
 * gang-svc: follows scheduler-svc's event stream and keeps per-partition gang state. Missing or wrong TLS files
 * (GANTRY_TLS_*) stop it with one line naming the variable and exit status 2.
 */
public final class GangApplication {
    private GangApplication() {}

    public static void main(String[] args) {
        ServiceStartup.start("gang-svc", GangApplication.class, args, TlsConfigurationException.class);
    }
}
