package dev.gantry.agent.job;

/**
 * The user a job runs for, as its verified launch credential names it. Today every task runs as the agent's
 * own user; switching to {@code uid}/{@code gid} (setpriv, or setuid in a helper) changes only the launcher.
 *
 * @param uid unsigned 32-bit uid, widened so that values above 2^31 stay positive
 * @param gid unsigned 32-bit gid, widened likewise
 */
public record JobUser(String name, long uid, long gid) {}
