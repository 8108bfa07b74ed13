package dev.gantry.common.config;

/**
 * A user from a {@code User=} line, or implied by an account's {@code Users=} (then: the first such account is the
 * default, 1 share, AdminLevel None, line 0).
 *
 * @param defaultAccount the account a job charges when it gives no {@code -A}
 * @param fairshare raw shares of each of this user's associations (user within an account)
 */
public record UserConfig(String name, String defaultAccount, long fairshare, AdminLevel adminLevel, int line) {

    /** Slurm's AdminLevel: what a user may do to others' jobs and to the configuration. */
    public enum AdminLevel {
        NONE, OPERATOR, ADMINISTRATOR;

        /** None, Operator, Administrator (or Admin), case-insensitive. */
        static AdminLevel parse(String raw) {
            return switch (raw.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "none" -> NONE;
                case "operator" -> OPERATOR;
                case "administrator", "admin" -> ADMINISTRATOR;
                default -> throw new IllegalArgumentException("'" + raw + "' is not one of None, Operator, Administrator");
            };
        }
    }
}
