package dev.gantry.placement;

/**
 * Whose a job is, as user-exclusive placement sees it: a job that is user-exclusive ({@code --exclusive=user}, or an
 * ExclusiveUser=YES partition) shares no node with another user's running or suspended job, and no other user's job is
 * placed on its nodes (https://slurm.schedmd.com/sbatch.html#OPT_exclusive,
 * https://slurm.schedmd.com/slurm.conf.html#OPT_ExclusiveUser). Jobs of one user share nodes as usual.
 *
 * @param user          the job's user name; empty when unknown (all unknown users count as one)
 * @param exclusiveUser the job keeps other users' jobs off its nodes
 */
public record Owner(String user, boolean exclusiveUser) {

    /** An unknown user's ordinary job: conflicts only with user-exclusive jobs of named users. */
    public static final Owner NONE = new Owner("", false);

    public Owner {
        user = user == null ? "" : user;
    }

    /** The same user, user-exclusive when it already is or {@code exclusive} (e.g. its partition is ExclusiveUser=YES). */
    public Owner orExclusive(boolean exclusive) {
        return exclusive && !exclusiveUser ? new Owner(user, true) : this;
    }

    /** Whether this job and {@code other} may not share a node: different users, and one of them user-exclusive. */
    public boolean conflictsWith(Owner other) {
        return (exclusiveUser || other.exclusiveUser) && !user.equals(other.user);
    }
}
