package dev.gantry.select.model;

import dev.gantry.placement.Consumables;
import dev.gantry.placement.ResourceUnit;

/**
 * SelectType= and SelectTypeParameters= as the replica holds them; what they make consumable is the placement core's
 * {@link Consumables}.
 */
public record SelectSettings(SelectMode mode, String parameters) {

    public static final SelectSettings DEFAULT = new SelectSettings(SelectMode.CONS_TRES, "");

    public Consumables consumables() {
        return Consumables.of(mode == SelectMode.LINEAR, parameters);
    }

    public ResourceUnit unit() {
        return consumables().unit();
    }

    /** Whether memory is a consumable resource (…_MEMORY, or blank). */
    public boolean memoryTracked() {
        return consumables().memoryTracked();
    }
}
