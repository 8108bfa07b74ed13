package dev.gantry.gang.grpc;

/** Where the Gang service reads what gang-svc tracks. */
@FunctionalInterface
public interface GangStatusSource {

    /** A consistent copy of the current state ({@link dev.gantry.gang.model.GangView#EMPTY} before any snapshot). Thread-safe. */
    GangStatus currentStatus();
}
