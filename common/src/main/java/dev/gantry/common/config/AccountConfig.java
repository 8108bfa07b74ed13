package dev.gantry.common.config;

import java.util.List;

/**
 * An account from an {@code Account=} line, or the implicit {@code root}. QOS lists and the default QOS are resolved:
 * an account without {@code QOS=} has its parent's list, and root's is {@code normal} (as sacctmgr's default).
 *
 * @param parent the parent account; empty for root
 * @param fairshare raw shares (Slurm's Fairshare=): this account's part of its parent, relative to its siblings
 * @param users the users that may charge this account (in file order), each an association with its own shares
 * @param qos the QOS jobs charging this account may use
 * @param defaultQos the QOS a job gets when it names none: DefaultQOS=, else the parent's when allowed here, else
 *     the first of {@code qos}
 * @param line the config line, 0 for the implicit root
 */
public record AccountConfig(String name, String parent, long fairshare, List<String> users, List<String> qos,
        String defaultQos, String description, int line) {

    /** The name of the root of the account tree. */
    public static final String ROOT = "root";

    public AccountConfig {
        users = List.copyOf(users);
        qos = List.copyOf(qos);
    }

    public boolean isRoot() {
        return parent.isEmpty();
    }
}
