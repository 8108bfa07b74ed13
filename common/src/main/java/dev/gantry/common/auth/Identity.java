package dev.gantry.common.auth;

import java.util.List;

/**
 * Who a call comes from, as the server established it — never as the request claims. Carried in the call's context
 * once the server's authentication has checked the caller's credential.
 *
 * @param user   the Unix user name
 * @param uid    the numeric user id
 * @param gid    the primary group id
 * @param groups the supplementary group ids (may be empty when the credential does not carry them)
 * @param method how it was established: {@code local} (the node authenticator's token), {@code munge}, {@code jwt}
 */
public record Identity(String user, long uid, long gid, List<Long> groups, String method) {

    public Identity {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("an identity needs a user name");
        }
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("uid and gid must not be negative, got " + uid + ", " + gid);
        }
        groups = List.copyOf(groups);
    }

    /** root, whatever it is called. */
    public boolean isRoot() {
        return uid == 0;
    }
}
