package dev.gantry.scheduler.model;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;

/**
 * What a caller may do, after Slurm's AdminLevel (https://slurm.schedmd.com/sacctmgr.html, "AdminLevel"): users act on
 * their own jobs (scancel, hold, release, requeue, update, top); operators and administrators on any job, and only
 * they suspend and resume jobs (scontrol(1) "suspend"). Root (uid 0 or the name root) and the config's SlurmUser are
 * administrators, as in Slurm; others take the AdminLevel of their User= line (None when they have none).
 * <p>
 * The caller is the user name a request carries, taken as given: requests are not authenticated until the security
 * issue, so roles are modelled, not enforced against a determined client.
 */
public enum Role {
    USER, OPERATOR, ADMINISTRATOR;

    /** Operators and administrators act on every user's jobs. */
    public boolean actsOnAnyJob() {
        return this != USER;
    }

    /**
     * @param uid the caller's numeric uid, or -1 when the request does not carry one
     */
    public static Role of(ClusterConfig config, String user, int uid) {
        if (uid == 0 || "root".equals(user) || config.get(Keys.SLURM_USER).equals(user)) {
            return ADMINISTRATOR;
        }
        return config.accounting().user(user).map(u -> switch (u.adminLevel()) {
            case NONE -> USER;
            case OPERATOR -> OPERATOR;
            case ADMINISTRATOR -> ADMINISTRATOR;
        }).orElse(USER);
    }
}
