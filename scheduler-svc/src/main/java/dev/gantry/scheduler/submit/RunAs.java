package dev.gantry.scheduler.submit;

import dev.gantry.common.auth.Identity;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Whom a submitted job runs as: its authenticated caller, never whom the request claims. A request may leave user, uid
 * and gid unset (the caller), or repeat the caller's own; a gid it names must be one of the caller's groups (sg,
 * newgrp), else the caller's primary group is used. Naming another user is acting on their behalf, which only
 * administrators may do (Slurm's {@code sbatch --uid}: "user root may use this option to submit jobs as a normal
 * user"); the job then runs as that user's account on this host. Pure: the account lookup comes in.
 */
public final class RunAs {
    private RunAs() {}

    /** The job's user, uid and gid. */
    public record Owner(String user, long uid, long gid) {}

    /** A host account: name, uid, primary gid. */
    public record Account(String user, long uid, long gid) {}

    /**
     * @param user         the request's user ("" = unset)
     * @param uid          the request's uid (0 with no user = unset)
     * @param gid          the request's gid (0 = unset)
     * @param administrator whether the caller may act on behalf of others
     * @throws SecurityException naming the field and why, when the caller may not run the job as whom it names
     */
    public static Owner resolve(Identity caller, String user, long uid, long gid, boolean administrator,
                                Function<String, Optional<Account>> byName, LongFunction<Optional<Account>> byUid) {
        boolean namesOther = !user.isEmpty() && !user.equals(caller.user());
        boolean otherUid = uid != caller.uid() && !(uid == 0 && user.isEmpty());
        if (!namesOther && !otherUid) {
            boolean ownGroup = gid == 0 || gid == caller.gid() || caller.groups().contains(gid);
            return new Owner(caller.user(), caller.uid(), ownGroup && gid != 0 ? gid : caller.gid());
        }
        if (!administrator) {
            throw new SecurityException(namesOther
                    ? "user: " + user + " is not you (" + caller.user() + "); only an administrator may submit for another user"
                    : "uid: " + uid + " is not yours (" + caller.user() + " is uid " + caller.uid()
                            + "); only an administrator may submit for another user");
        }
        Account target = (user.isEmpty() ? byUid.apply(uid) : byName.apply(user)).orElseThrow(() -> new SecurityException(
                user.isEmpty() ? "uid: " + uid + " is not a user of this host" : "user: " + user + " is not a user of this host"));
        if (uid != 0 && uid != target.uid()) {
            throw new SecurityException("uid: " + uid + " is not " + user + "'s (" + target.uid() + ")");
        }
        return new Owner(target.user(), target.uid(), target.gid());
    }
}
