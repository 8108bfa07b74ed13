package dev.gantry.scheduler.priority;

import java.util.Objects;

/**
 * Slurm's association: a user within an account, or an account itself ({@code user} empty). Usage is charged to
 * user associations; an account's usage is the sum of its sub-tree.
 */
public record Association(String account, String user) {

    public Association {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(user, "user");
    }

    public static Association of(String account, String user) {
        return new Association(account, user);
    }

    public static Association account(String account) {
        return new Association(account, "");
    }

    public boolean isUser() {
        return !user.isEmpty();
    }

    @Override
    public String toString() {
        return isUser() ? account + "/" + user : account;
    }
}
