package dev.gantry.common.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Reads Gantry's accounting lines (Slurm keeps these in its database, set with sacctmgr):
 * <pre>
 *   QOS=buyin Priority=3000 MaxWall=7-0 GrpTRES=cpu=512,gres/gpu=16 UsageFactor=1.0 Flags=DenyOnLimit
 *   Account=physics Parent=science Fairshare=40 Users=alice,bob QOS=normal,buyin DefaultQOS=normal
 *   User=alice DefaultAccount=physics Fairshare=2 AdminLevel=Operator
 * </pre>
 * Lines may come in any order (an account may name a parent defined further down). {@link #finish} resolves and
 * checks everything once the whole file is read: unknown parents, cycles, unknown QOS (in Preempt=, QOS=, DefaultQOS=,
 * partitions' AllowQos), unknown accounts (DefaultAccount=, partitions' AllowAccounts), users in no account. Each
 * problem names the line it comes from, as {@code file:line: key: what is wrong}.
 */
final class AccountingParser {

    private static final Map<String, String> QOS_KEYS = canonical("QOS", "Priority", "Preempt", "PreemptMode",
            "GraceTime", "PreemptExemptTime", "MaxWall", "MaxJobsPerUser", "MaxSubmitJobsPerUser", "GrpTRES",
            "MaxTRESPerUser", "UsageFactor", "Flags", "Description");
    private static final Map<String, String> ACCOUNT_KEYS = canonical("Account", "Parent", "Fairshare", "Users", "QOS",
            "DefaultQOS", "Description");
    private static final Map<String, String> USER_KEYS = canonical("User", "DefaultAccount", "Fairshare", "AdminLevel");
    /** Slurm's QOS flags (sacctmgr), canonical spelling. */
    private static final List<String> QOS_FLAGS = List.of("DenyOnLimit", "EnforceUsageThreshold", "NoDecay",
            "NoReserve", "OverPartQOS", "PartitionMaxNodes", "PartitionMinNodes", "PartitionTimeLimit",
            "RequiresReservation", "UsageFactorSafe");
    private static final String NAME = "[A-Za-z0-9_.\\-]+";

    private record RawAccount(String name, String parent, long fairshare, List<String> users, List<String> qos,
            String defaultQos, String description, int line) {}

    private final OptionReader options;
    private final Map<String, QosConfig> qos = new LinkedHashMap<>();
    private final Map<String, RawAccount> accounts = new LinkedHashMap<>();
    private final Map<String, UserConfig> users = new LinkedHashMap<>();
    /** The problems reported when the current line began: a line with problems defines nothing. */
    private int lineStart;

    AccountingParser(NodeResources.Problems problems) {
        this.options = new OptionReader(problems, AccountingParser::canonicalKey);
    }

    /** True for a line this parser reads: one starting with QOS=, Account= or User=. */
    static boolean owns(String firstKey) {
        String k = firstKey.toLowerCase(Locale.ROOT);
        return k.equals("qos") || k.equals("account") || k.equals("user");
    }

    /** Reads one logical line whose first key {@link #owns} is true. */
    void line(List<String[]> pairs, int lineNo) {
        lineStart = options.reported();
        switch (pairs.get(0)[0].toLowerCase(Locale.ROOT)) {
            case "qos" -> qosLine(collect(pairs, QOS_KEYS, lineNo), lineNo);
            case "account" -> accountLine(collect(pairs, ACCOUNT_KEYS, lineNo), lineNo);
            default -> userLine(collect(pairs, USER_KEYS, lineNo), lineNo);
        }
    }

    private void qosLine(Map<String, String> m, int lineNo) {
        String name = newName(m, "QOS", qos, QosConfig::line, lineNo);
        if (name == null) {
            return;
        }
        int priority = options.get(m, "priority", Values.intRange(0, Integer.MAX_VALUE), 0, lineNo);
        List<String> preempt = options.get(m, "preempt", Values::list, List.of(), lineNo);
        PreemptMode preemptMode = options.get(m, "preemptmode", Values::preemptMode, null, lineNo);
        long grace = options.get(m, "gracetime", Values.seconds(0, Integer.MAX_VALUE), 0L, lineNo);
        long exempt = options.get(m, "preemptexempttime", Values::timeLimit, -1L, lineNo);
        long maxWall = options.get(m, "maxwall", Values::timeLimit, -1L, lineNo);
        int maxJobs = options.get(m, "maxjobsperuser", AccountingParser::limit, -1, lineNo);
        int maxSubmit = options.get(m, "maxsubmitjobsperuser", AccountingParser::limit, -1, lineNo);
        TresLimits grp = options.get(m, "grptres", TresLimits::parse, TresLimits.UNLIMITED, lineNo);
        TresLimits perUser = options.get(m, "maxtresperuser", TresLimits::parse, TresLimits.UNLIMITED, lineNo);
        double usageFactor = options.get(m, "usagefactor", AccountingParser::usageFactor, 1.0, lineNo);
        List<String> flags = options.get(m, "flags", AccountingParser::flags, List.of(), lineNo);
        if (options.reported() == lineStart) {
            qos.put(name, new QosConfig(name, priority, preempt, preemptMode, grace, exempt, maxWall, maxJobs, maxSubmit,
                    grp, perUser, usageFactor, flags, m.getOrDefault("description", ""), lineNo));
        }
    }

    private void accountLine(Map<String, String> m, int lineNo) {
        String name = newName(m, "Account", accounts, RawAccount::line, lineNo);
        if (name == null) {
            return;
        }
        boolean root = name.equals(AccountConfig.ROOT);
        if (root && m.containsKey("parent")) {
            options.report(lineNo, "Parent", "root has no parent");
            return;
        }
        String parent = root ? "" : m.getOrDefault("parent", AccountConfig.ROOT);
        if (!root && !validName(parent, "Parent", lineNo)) {
            return;
        }
        long shares = options.get(m, "fairshare", AccountingParser::shares, 1L, lineNo);
        List<String> members = options.get(m, "users", Values::list, List.of(), lineNo);
        for (String u : members) {
            if (!u.matches(NAME)) {
                options.report(lineNo, "Users", "'" + u + "' is not a valid user name");
            }
        }
        if (new HashSet<>(members).size() != members.size()) {
            options.report(lineNo, "Users", "a user is listed twice");
        }
        List<String> allowed = options.get(m, "qos", Values::list, List.of(), lineNo);
        if (options.reported() == lineStart) {
            accounts.put(name, new RawAccount(name, parent, shares, members, allowed, m.getOrDefault("defaultqos", ""),
                    m.getOrDefault("description", ""), lineNo));
        }
    }

    private void userLine(Map<String, String> m, int lineNo) {
        String name = newName(m, "User", users, UserConfig::line, lineNo);
        if (name == null) {
            return;
        }
        long shares = options.get(m, "fairshare", AccountingParser::shares, 1L, lineNo);
        UserConfig.AdminLevel level = options.get(m, "adminlevel", UserConfig.AdminLevel::parse, UserConfig.AdminLevel.NONE,
                lineNo);
        if (options.reported() == lineStart) {
            users.put(name, new UserConfig(name, m.getOrDefault("defaultaccount", ""), shares, level, lineNo));
        }
    }

    /**
     * Resolves and checks the whole file's accounting lines against each other and against the partitions'
     * AllowAccounts and AllowQos. Reports problems; the result is only meaningful when none were reported.
     */
    Accounting finish(List<PartitionConfig> partitions) {
        Map<String, QosConfig> allQos = new LinkedHashMap<>();
        if (!qos.containsKey(QosConfig.NORMAL.name())) {
            allQos.put(QosConfig.NORMAL.name(), QosConfig.NORMAL);
        }
        allQos.putAll(qos);
        for (QosConfig q : qos.values()) {
            for (String p : q.preempt()) {
                if (!allQos.containsKey(p)) {
                    options.report(q.line(), "Preempt", "unknown QOS " + p);
                }
            }
        }
        Map<String, RawAccount> raw = new LinkedHashMap<>();
        raw.put(AccountConfig.ROOT, accounts.getOrDefault(AccountConfig.ROOT,
                new RawAccount(AccountConfig.ROOT, "", 1, List.of(), List.of(), "", "", 0)));
        raw.putAll(accounts);
        Map<String, List<String>> members = new LinkedHashMap<>();
        raw.values().forEach(a -> members.put(a.name(), new ArrayList<>(a.users())));
        for (UserConfig u : users.values()) {
            if (!u.defaultAccount().isEmpty()) {
                if (!raw.containsKey(u.defaultAccount())) {
                    options.report(u.line(), "DefaultAccount", "unknown account " + u.defaultAccount());
                } else if (!members.get(u.defaultAccount()).contains(u.name())) {
                    members.get(u.defaultAccount()).add(u.name()); // DefaultAccount= makes the user a member
                }
            }
        }
        Map<String, AccountConfig> resolved = new LinkedHashMap<>();
        Set<String> reported = new HashSet<>();
        for (RawAccount a : raw.values()) {
            resolve(a.name(), raw, allQos, members, resolved, reported);
        }
        Map<String, UserConfig> allUsers = new LinkedHashMap<>();
        for (UserConfig u : users.values()) {
            if (u.defaultAccount().isEmpty()) {
                String first = firstAccountOf(u.name(), members);
                if (first == null) {
                    options.report(u.line(), "User", u.name() + " belongs to no account (give DefaultAccount= or list "
                            + "the user in an account's Users=)");
                    continue;
                }
                u = new UserConfig(u.name(), first, u.fairshare(), u.adminLevel(), u.line());
            }
            allUsers.put(u.name(), u);
        }
        for (List<String> list : members.values()) {
            for (String u : list) {
                allUsers.computeIfAbsent(u, n -> new UserConfig(n, firstAccountOf(n, members), 1,
                        UserConfig.AdminLevel.NONE, 0));
            }
        }
        for (PartitionConfig p : partitions) {
            checkAllowed(p.allowAccounts(), resolved.keySet(), p.line(), "AllowAccounts", "account");
            checkAllowed(p.allowQos(), allQos.keySet(), p.line(), "AllowQos", "QOS");
        }
        return new Accounting(allQos, resolved, allUsers);
    }

    /** Resolves an account after its parent; reports unknown parents and cycles once, at the account's line. */
    private AccountConfig resolve(String name, Map<String, RawAccount> raw, Map<String, QosConfig> allQos,
            Map<String, List<String>> members, Map<String, AccountConfig> done, Set<String> reported) {
        if (done.containsKey(name)) {
            return done.get(name);
        }
        List<String> chain = new ArrayList<>();
        RawAccount a = raw.get(name);
        for (RawAccount up = a; !up.parent().isEmpty(); up = raw.get(up.parent())) {
            chain.add(up.name());
            if (!raw.containsKey(up.parent())) {
                if (reported.add(up.name())) {
                    options.report(up.line(), "Parent", "unknown account " + up.parent());
                }
                return null;
            }
            if (chain.contains(up.parent())) {
                List<String> cycle = new ArrayList<>(chain.subList(chain.indexOf(up.parent()), chain.size()));
                if (java.util.Collections.disjoint(reported, cycle)) {
                    reported.addAll(cycle);
                    cycle.add(up.parent());
                    options.report(raw.get(up.parent()).line(), "Parent", "accounts form a cycle: "
                            + String.join(" -> ", cycle));
                }
                return null;
            }
            if (done.containsKey(up.parent())) {
                break;
            }
        }
        AccountConfig parent = a.parent().isEmpty() ? null
                : resolve(a.parent(), raw, allQos, members, done, reported);
        if (!a.parent().isEmpty() && parent == null) {
            return null;
        }
        List<String> allowed = a.qos().isEmpty() ? (parent == null ? List.of("normal") : parent.qos()) : a.qos();
        for (String q : a.qos()) {
            if (!allQos.containsKey(q)) {
                options.report(a.line(), "QOS", "unknown QOS " + q);
            }
        }
        String defaultQos = a.defaultQos();
        if (!defaultQos.isEmpty() && !allowed.contains(defaultQos)) {
            options.report(a.line(), "DefaultQOS", allQos.containsKey(defaultQos)
                    ? defaultQos + " is not in this account's QOS list " + String.join(",", allowed)
                    : "unknown QOS " + defaultQos);
        }
        if (defaultQos.isEmpty()) {
            defaultQos = parent != null && allowed.contains(parent.defaultQos()) ? parent.defaultQos() : allowed.get(0);
        }
        AccountConfig out = new AccountConfig(a.name(), a.parent(), a.fairshare(), members.get(a.name()), allowed,
                defaultQos, a.description(), a.line());
        done.put(name, out);
        return out;
    }

    private static String firstAccountOf(String user, Map<String, List<String>> members) {
        return members.entrySet().stream().filter(e -> e.getValue().contains(user)).map(Map.Entry::getKey)
                .findFirst().orElse(null);
    }

    private void checkAllowed(List<String> named, Set<String> known, int line, String key, String what) {
        for (String n : named) {
            if (!n.equalsIgnoreCase("ALL") && !known.contains(n)) {
                options.report(line, key, "unknown " + what + " " + n);
            }
        }
    }

    /**
     * The name a QOS=, Account= or User= line defines ({@code key} as spelled in messages); null after reporting that it
     * is not a valid name or is already in {@code defined}.
     */
    private <T> String newName(Map<String, String> m, String key, Map<String, T> defined, ToIntFunction<T> line, int lineNo) {
        String name = m.get(key.toLowerCase(Locale.ROOT));
        if (!validName(name, key, lineNo)) {
            return null;
        }
        if (defined.containsKey(name)) {
            options.report(lineNo, key, name + " is already defined on line " + line.applyAsInt(defined.get(name)));
            return null;
        }
        return name;
    }

    private boolean validName(String name, String key, int lineNo) {
        if (name == null || !name.matches(NAME)) {
            options.report(lineNo, key, "'" + (name == null ? "" : name) + "' is not a valid name");
            return false;
        }
        return true;
    }

    private Map<String, String> collect(List<String[]> pairs, Map<String, String> allowed, int lineNo) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String[] kv : pairs) {
            String lower = kv[0].toLowerCase(Locale.ROOT);
            if (!allowed.containsKey(lower)) {
                options.report(lineNo, kv[0], "unknown key (" + String.join(", ", allowed.values()) + ")");
            } else if (m.put(lower, kv[1]) != null) {
                options.report(lineNo, kv[0], "given twice on one line");
            }
        }
        return m;
    }

    private static String canonicalKey(String lower) {
        for (Map<String, String> keys : List.of(QOS_KEYS, ACCOUNT_KEYS, USER_KEYS)) {
            if (keys.containsKey(lower)) {
                return keys.get(lower);
            }
        }
        return lower;
    }

    private static Map<String, String> canonical(String... keys) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : keys) {
            m.put(k.toLowerCase(Locale.ROOT), k);
        }
        return m;
    }

    /** A count limit: a whole number >= 0, or -1 / UNLIMITED for none. */
    private static Integer limit(String raw) {
        return raw.trim().equals("-1") ? -1 : Values.intOrUnlimited(0, Integer.MAX_VALUE).apply(raw);
    }

    private static Long shares(String raw) {
        return (long) Values.intRange(0, Integer.MAX_VALUE).apply(raw);
    }

    private static Double usageFactor(String raw) {
        double v;
        try {
            v = Double.parseDouble(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + raw + "' is not a number");
        }
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException("'" + raw + "' must be a finite number >= 0");
        }
        return v;
    }

    private static List<String> flags(String raw) {
        Set<String> out = new LinkedHashSet<>();
        for (String f : Values.list(raw)) {
            String canonical = QOS_FLAGS.stream().filter(known -> known.equalsIgnoreCase(f)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("'" + f + "' is not one of "
                            + String.join(", ", QOS_FLAGS)));
            out.add(canonical);
        }
        return List.copyOf(out);
    }
}
