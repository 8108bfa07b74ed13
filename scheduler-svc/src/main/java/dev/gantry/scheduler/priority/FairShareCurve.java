package dev.gantry.scheduler.priority;

/**
 * How a fair-share factor follows from effective usage U and normalized shares S (both fractions of the cluster).
 * Both forms give 1.0 with no usage and 0.5 when usage equals the share; a node with no shares gets 0.
 */
public enum FairShareCurve {

    /** Slurm's classic form, {@code F = 2^(−U/S)} (https://slurm.schedmd.com/classic_fair_share.html); never 0. */
    CLASSIC {
        @Override
        public double factor(double effectiveUsage, double normShares) {
            return normShares <= 0 ? 0 : Math.pow(2, -effectiveUsage / normShares);
        }

        @Override
        public boolean reachesZero() {
            return false;
        }
    },

    /** The linear form some sites publish: {@code F = max(0, 1 − U/(2S))}, 0 at twice the share or more. */
    LINEAR {
        @Override
        public double factor(double effectiveUsage, double normShares) {
            return normShares <= 0 ? 0 : Math.max(0, 1 - effectiveUsage / (2 * normShares));
        }

        @Override
        public boolean reachesZero() {
            return true;
        }
    };

    /** The factor, between 0 and 1. */
    public abstract double factor(double effectiveUsage, double normShares);

    /** Whether some finite usage gives a factor of 0. */
    public abstract boolean reachesZero();

    /** The config spelling: {@code classic} or {@code linear}. */
    public String configName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** FairShareType= as the config parser checked it: classic or linear. */
    public static FairShareCurve of(String fairShareType) {
        return valueOf(fairShareType.toUpperCase(java.util.Locale.ROOT));
    }
}
