package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The QOS, accounts and users of a config, resolved and checked: every parent, QOS, default account and default QOS
 * named exists, and the accounts form a tree under {@code root}. Maps keep file order (root first; the implicit
 * {@code normal} QOS first unless configured). Immutable.
 */
public record Accounting(Map<String, QosConfig> qos, Map<String, AccountConfig> accounts,
        Map<String, UserConfig> users) {

    /** What a config without QOS=, Account= or User= lines has: QOS normal, account root, no users. */
    public static final Accounting DEFAULT = new Accounting(Map.of(QosConfig.NORMAL.name(), QosConfig.NORMAL),
            Map.of(AccountConfig.ROOT, new AccountConfig(AccountConfig.ROOT, "", 1, List.of(), List.of("normal"),
                    "normal", "", 0)), Map.of());

    public Accounting {
        qos = Collections.unmodifiableMap(new LinkedHashMap<>(qos));
        accounts = Collections.unmodifiableMap(new LinkedHashMap<>(accounts));
        users = Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }

    public Optional<QosConfig> qos(String name) {
        return Optional.ofNullable(qos.get(name));
    }

    public Optional<AccountConfig> account(String name) {
        return Optional.ofNullable(accounts.get(name));
    }

    public Optional<UserConfig> user(String name) {
        return Optional.ofNullable(users.get(name));
    }

    /** The accounts a user may charge, in file order. */
    public List<String> accountsOf(String user) {
        List<String> out = new ArrayList<>();
        for (AccountConfig a : accounts.values()) {
            if (a.users().contains(user)) {
                out.add(a.name());
            }
        }
        return out;
    }

    /** The direct sub-accounts of an account, in file order. */
    public List<String> children(String account) {
        return accounts.values().stream().filter(a -> a.parent().equals(account)).map(AccountConfig::name).toList();
    }

    /**
     * A copy with a QOS added or replaced (the admin API's QOS update), checked as a {@code QOS=} line would be.
     *
     * @throws IllegalArgumentException naming what is wrong: a bad name, an unknown QOS in Preempt, a negative
     *     Priority or UsageFactor
     */
    public Accounting withQos(QosConfig q) {
        if (!q.name().matches("[A-Za-z0-9_.\\-]+")) {
            throw new IllegalArgumentException("QOS: '" + q.name() + "' is not a valid name");
        }
        if (q.priority() < 0) {
            throw new IllegalArgumentException("Priority: " + q.priority() + " is out of range 0..2147483647");
        }
        if (!Double.isFinite(q.usageFactor()) || q.usageFactor() < 0) {
            throw new IllegalArgumentException("UsageFactor: " + q.usageFactor() + " must be a finite number >= 0");
        }
        for (String p : q.preempt()) {
            if (!qos.containsKey(p) && !p.equals(q.name())) {
                throw new IllegalArgumentException("Preempt: unknown QOS " + p);
            }
        }
        Map<String, QosConfig> next = new LinkedHashMap<>(qos);
        next.put(q.name(), q);
        return new Accounting(next, accounts, users);
    }

    /** The highest QOS priority (the QOS factor's denominator); 0 when every QOS has priority 0. */
    public int maxQosPriority() {
        return qos.values().stream().mapToInt(QosConfig::priority).max().orElse(0);
    }
}
