package dev.gantry.scheduler.access;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.scheduler.model.Role;

/**
 * The authenticated caller as the authorization rules see it.
 *
 * @param user the caller's user name
 * @param uid the caller's numeric uid, or -1 where only a name is known (tests, internal callers)
 * @param role after Slurm's AdminLevel ({@link Role#of})
 */
public record Requester(String user, long uid, Role role) {

    public static Requester of(ClusterConfig config, String user, long uid) {
        return new Requester(user, uid, Role.of(config, user, (int) uid));
    }

    /** Slurm's validate_operator: operators and administrators see and act on every job. */
    public boolean privileged() {
        return role.actsOnAnyJob();
    }

    /** Whether {@code owner} (a job's or an association's user) is this caller. */
    public boolean is(String owner) {
        return user.equals(owner);
    }

    /** "alice (uid 1000)", for logs and messages. */
    public String describe() {
        return uid < 0 ? user : user + " (uid " + uid + ")";
    }
}
