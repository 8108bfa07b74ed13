package dev.gantry.select;

import io.micronaut.runtime.Micronaut;

/** select-svc: follows scheduler-svc's event stream and answers where pending jobs fit (Plan, WillRun). */
public final class SelectApplication {
    private SelectApplication() {}

    public static void main(String[] args) {
        Micronaut.build(args).mainClass(SelectApplication.class).banner(false).start();
    }
}
