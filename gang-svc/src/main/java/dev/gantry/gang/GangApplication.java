package dev.gantry.gang;

import io.micronaut.runtime.Micronaut;

/** gang-svc: follows scheduler-svc's event stream and keeps per-partition gang state. */
public final class GangApplication {
    private GangApplication() {}

    public static void main(String[] args) {
        Micronaut.build(args).mainClass(GangApplication.class).banner(false).start();
    }
}
