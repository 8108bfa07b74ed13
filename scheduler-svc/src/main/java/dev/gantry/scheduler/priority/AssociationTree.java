package dev.gantry.scheduler.priority;

import dev.gantry.common.config.AccountConfig;
import dev.gantry.common.config.Accounting;
import dev.gantry.common.config.UserConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The association tree root → accounts → users, with Slurm's normalized shares
 * (https://slurm.schedmd.com/classic_fair_share.html#norm_shares): a node's share is its raw shares over the raw
 * shares of all its siblings (users and sub-accounts of the same parent), times its parent's normalized share; root's
 * is 1. Nodes are numbered in tree order (an account, then its users, then its sub-accounts, recursively), which is
 * the order sshare lists them; node 0 is root. Immutable.
 */
public final class AssociationTree {

    private final List<Association> nodes;
    private final int[] parent;
    private final int[] depth;
    private final long[] rawShares;
    private final long[] levelShares;
    private final double[] normShares;
    private final Map<Association, Integer> index;
    /** account → user ("" for the account itself) → node: {@link #nodeFor} without allocating a key. */
    private final Map<String, Map<String, Integer>> byAccount = new HashMap<>();

    private AssociationTree(List<Association> nodes, int[] parent, int[] depth, long[] rawShares) {
        int n = nodes.size();
        this.nodes = List.copyOf(nodes);
        this.parent = parent;
        this.depth = depth;
        this.rawShares = rawShares;
        this.levelShares = new long[n];
        this.normShares = new double[n];
        this.index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(nodes.get(i), i);
            byAccount.computeIfAbsent(nodes.get(i).account(), a -> new HashMap<>()).put(nodes.get(i).user(), i);
        }
        long[] childSum = new long[n];
        for (int i = 1; i < n; i++) {
            childSum[parent[i]] += rawShares[i];
        }
        levelShares[0] = rawShares[0];
        normShares[0] = 1.0;
        for (int i = 1; i < n; i++) { // parents come before children in tree order
            levelShares[i] = childSum[parent[i]];
            normShares[i] = levelShares[i] == 0 ? 0 : (double) rawShares[i] / levelShares[i] * normShares[parent[i]];
        }
    }

    /** The tree of a config's accounts (Fairshare= each) and their users (the user's Fairshare= in each account). */
    public static AssociationTree of(Accounting accounting) {
        List<Association> nodes = new ArrayList<>();
        List<Integer> parents = new ArrayList<>();
        List<Integer> depths = new ArrayList<>();
        List<Long> shares = new ArrayList<>();
        add(accounting, accounting.accounts().get(AccountConfig.ROOT), -1, 0, nodes, parents, depths, shares);
        int n = nodes.size();
        int[] parent = new int[n];
        int[] depth = new int[n];
        long[] raw = new long[n];
        for (int i = 0; i < n; i++) {
            parent[i] = parents.get(i);
            depth[i] = depths.get(i);
            raw[i] = shares.get(i);
        }
        return new AssociationTree(nodes, parent, depth, raw);
    }

    private static void add(Accounting accounting, AccountConfig account, int parentIndex, int depth,
            List<Association> nodes, List<Integer> parents, List<Integer> depths, List<Long> shares) {
        int me = nodes.size();
        nodes.add(Association.account(account.name()));
        parents.add(parentIndex);
        depths.add(depth);
        shares.add(account.fairshare());
        for (String user : account.users()) {
            nodes.add(Association.of(account.name(), user));
            parents.add(me);
            depths.add(depth + 1);
            shares.add(accounting.user(user).map(UserConfig::fairshare).orElse(1L));
        }
        for (String child : accounting.children(account.name())) {
            add(accounting, accounting.accounts().get(child), me, depth + 1, nodes, parents, depths, shares);
        }
    }

    public int size() {
        return nodes.size();
    }

    public Association association(int node) {
        return nodes.get(node);
    }

    /** The node of an association, or -1 when the tree has none. */
    public int node(Association association) {
        Integer i = index.get(association);
        return i == null ? -1 : i;
    }

    /** The node whose fair share a job of this account and user gets: the user's, else the account's, else root's. */
    public int nodeFor(String account, String user) {
        Map<String, Integer> users = byAccount.get(account);
        if (users == null) {
            return 0;
        }
        Integer n = users.get(user);
        return n != null ? n : users.get("");
    }

    /** The parent node; -1 for root. */
    public int parent(int node) {
        return parent[node];
    }

    /** 0 for root, 1 for its children, … (sshare indents by it). */
    public int depth(int node) {
        return depth[node];
    }

    public long rawShares(int node) {
        return rawShares[node];
    }

    /** The raw shares of the node and all its siblings together (Slurm's S_all_siblings). */
    public long levelShares(int node) {
        return levelShares[node];
    }

    public double normShares(int node) {
        return normShares[node];
    }

    public boolean isUser(int node) {
        return nodes.get(node).isUser();
    }
}
