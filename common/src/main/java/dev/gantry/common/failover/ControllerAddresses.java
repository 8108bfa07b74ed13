package dev.gantry.common.failover;

import java.util.ArrayList;
import java.util.List;

/**
 * A controller address setting: one "host:port", or several separated by commas or newlines (the active controller
 * and its standbys, in the order to try them; Slurm lists SlurmctldHost once per controller).
 */
public final class ControllerAddresses {

    private ControllerAddresses() {}

    /**
     * The addresses in {@code text}, in order, without blanks or repeats.
     *
     * @param setting names the setting in the error (e.g. GANTRY_SCHEDULER_ADDRESS)
     * @throws IllegalArgumentException naming the setting when there is no address or one is not host:port
     */
    public static List<String> parse(String text, String setting) {
        List<String> out = new ArrayList<>();
        for (String part : text.split("[,\\n]")) {
            String a = part.strip();
            if (a.isEmpty()) {
                continue;
            }
            int colon = a.lastIndexOf(':');
            if (colon <= 0 || colon == a.length() - 1 || !a.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException(setting + ": expected host:port, got \"" + a + "\"");
            }
            if (!out.contains(a)) {
                out.add(a);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(setting + ": no controller address given");
        }
        return List.copyOf(out);
    }
}
