package dev.gantry.common.config;

/**
 * One {@code TRES=value} item of a TRES list (a QOS's GrpTRES= and MaxTRESPerUser=, TRESBillingWeights=), its TRES
 * named canonically ({@link TresLimits#canonicalTres}).
 *
 * @param text the item as written, for messages
 * @param value the text after {@code =}, trimmed
 */
record TresItem(String text, String name, String value) {

    /**
     * One item of a comma-separated list ({@link Values#list}).
     *
     * @param valueWord what the value is, for the message refusing an item without one ("count", "weight")
     * @throws IllegalArgumentException for an item without {@code TRES=}, or a name that is not a TRES
     */
    static TresItem of(String item, String valueWord) {
        int eq = item.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("'" + item + "' is not TRES=" + valueWord);
        }
        return new TresItem(item, TresLimits.canonicalTres(item.substring(0, eq)), item.substring(eq + 1).trim());
    }
}
