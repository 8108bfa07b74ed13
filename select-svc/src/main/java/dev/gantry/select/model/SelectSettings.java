package dev.gantry.select.model;

/** SelectType= and SelectTypeParameters= (kept verbatim for the full cons_tres model, e.g. CR_Core_Memory). */
public record SelectSettings(SelectMode mode, String parameters) {

    public static final SelectSettings DEFAULT = new SelectSettings(SelectMode.CONS_TRES, "");

    public static SelectSettings from(dev.gantry.api.v1.SelectSettings settings) {
        return new SelectSettings(SelectMode.fromSelectType(settings.getSelectType()), settings.getSelectTypeParameters());
    }
}
