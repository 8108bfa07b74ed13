package dev.gantry.select.runtime;

import dev.gantry.select.placement.PlacementPlanner;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Primary;
import jakarta.inject.Singleton;
import java.time.InstantSource;

/** The pure pieces the gRPC service is built from, as beans. */
@Factory
class SelectBeans {

    @Singleton
    PlacementPlanner placementPlanner() {
        return PlacementPlanner.standard();
    }

    /**
     * The wall clock: only the runtime reads it, and only for WillRun's earliest_start. Primary because Micronaut
     * offers a java.time.Clock bean (also an InstantSource) of its own.
     */
    @Singleton
    @Primary
    InstantSource clock() {
        return InstantSource.system();
    }
}
