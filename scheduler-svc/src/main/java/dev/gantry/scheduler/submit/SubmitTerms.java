package dev.gantry.scheduler.submit;

import dev.gantry.common.config.AccountConfig;
import dev.gantry.common.config.Accounting;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.QosConfig;
import dev.gantry.common.config.UserConfig;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.Role;
import java.util.List;
import java.util.function.Function;

/**
 * The terms of a submission beyond its resources: account and QOS (checked against the accounting config and the
 * partitions' AllowAccounts/AllowQos), nice, hold, begin time and requeue, with Slurm's refusal messages. Accounts
 * are enforced once the config names users (Account= … Users=, or User= lines); without them any account string is
 * accepted, as Slurm without AccountingStorageEnforce. Pure.
 */
public final class SubmitTerms {

    /** Slurm's limit on --nice. */
    public static final int MAX_NICE = 2_147_483_645;

    static final String BAD_ACCOUNT = "Invalid account or account/partition combination specified";
    static final String BAD_QOS = "Invalid qos specification";
    static final String POLICY = "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";

    private final ClusterConfig config;
    private final Accounting accounting;
    private final boolean enforceAccounts;
    private final boolean requeueDefault;
    private final Function<String, PartitionConfig> partitions;

    public SubmitTerms(ClusterConfig config) {
        this.config = config;
        this.accounting = config.accounting();
        this.enforceAccounts = !accounting.users().isEmpty();
        this.requeueDefault = config.get(Keys.JOB_REQUEUE);
        this.partitions = n -> config.partition(n).orElse(null);
    }

    /** The resolved terms, or a refusal naming the field. */
    public sealed interface Outcome permits Resolved, Refused {}

    public record Resolved(JobControls controls) implements Outcome {}

    public record Refused(String field, String message) implements Outcome {}

    /** Whether the user is a Slurm operator or administrator (root always is). */
    public boolean isAdmin(String user, int uid) {
        return Role.of(config, user, uid).actsOnAnyJob();
    }

    /**
     * @param qosTable the QOS in force now (the config's, as edited through the admin API)
     * @param partitionNames the job's partitions, resolved
     * @param activeInQos the user's pending and running jobs of a QOS now (for MaxSubmitJobsPerUser)
     * @param jobs how many jobs the submission makes (an array's task count; 1 otherwise)
     */
    public Outcome resolve(JobRequest request, java.util.Map<String, QosConfig> qosTable, List<String> partitionNames,
            java.util.function.ToIntFunction<String> activeInQos, int jobs) {
        String user = request.user();
        boolean admin = isAdmin(user, request.uid());
        // --- account
        String account = request.account().trim();
        if (enforceAccounts) {
            List<String> mine = accounting.accountsOf(user);
            if (account.isEmpty()) {
                account = accounting.user(user).map(UserConfig::defaultAccount).orElse(mine.isEmpty() ? "" : mine.get(0));
                if (account.isEmpty()) {
                    return new Refused("account", "account: " + BAD_ACCOUNT + " (user " + user
                            + " has no association; add them to an Account's Users=)");
                }
            } else if (accounting.account(account).isEmpty()) {
                return new Refused("account", "account: " + BAD_ACCOUNT + " (no account named " + account + ")");
            } else if (!mine.contains(account) && !admin) {
                return new Refused("account", "account: " + BAD_ACCOUNT + " (user " + user + " may use "
                        + (mine.isEmpty() ? "no account" : String.join(",", mine)) + ", not " + account + ")");
            }
        }
        // --- QOS
        String qos = request.qos().trim();
        AccountConfig acct = accounting.account(account).orElse(null);
        if (qos.isEmpty()) {
            qos = acct != null && enforceAccounts ? acct.defaultQos() : QosConfig.NORMAL.name();
        }
        QosConfig q = qosTable.get(qos);
        if (q == null) {
            return new Refused("qos", "qos: " + BAD_QOS + " (no QOS named " + qos + "; known: "
                    + String.join(",", qosTable.keySet()) + ")");
        }
        if (enforceAccounts && acct != null && !acct.qos().contains(qos) && !admin) {
            return new Refused("qos", "qos: " + BAD_QOS + " (account " + account + " may use "
                    + String.join(",", acct.qos()) + ", not " + qos + ")");
        }
        // --- the partitions' AllowAccounts / AllowQos: at least one partition must take both
        String partitionProblem = null;
        for (String name : partitionNames) {
            PartitionConfig p = partitions.apply(name);
            if (p == null) {
                continue;
            }
            if (!allows(p.allowAccounts(), account)) {
                partitionProblem = partitionProblem != null ? partitionProblem
                        : "account: " + BAD_ACCOUNT + " (partition " + name + " AllowAccounts=" + String.join(",", p.allowAccounts()) + ")";
            } else if (!allows(p.allowQos(), qos)) {
                partitionProblem = partitionProblem != null ? partitionProblem
                        : "qos: " + BAD_QOS + " (partition " + name + " AllowQos=" + String.join(",", p.allowQos()) + ")";
            } else {
                partitionProblem = null;
                break;
            }
        }
        if (partitionProblem != null) {
            return new Refused(partitionProblem.substring(0, partitionProblem.indexOf(':')), partitionProblem);
        }
        // --- limits known at submit
        if (q.maxSubmitJobsPerUser() >= 0 && activeInQos.applyAsInt(qos) + jobs > q.maxSubmitJobsPerUser()) {
            return new Refused("qos", "qos: " + POLICY + " (QOS " + qos + " MaxSubmitJobsPerUser="
                    + q.maxSubmitJobsPerUser() + ")");
        }
        // --- nice
        int nice = request.nice() != null ? request.nice() : 0;
        if (nice > MAX_NICE || nice < -MAX_NICE) {
            return new Refused("nice", "nice: " + nice + " is out of range (-" + MAX_NICE + " to " + MAX_NICE + ")");
        }
        if (nice < 0 && !admin) {
            return new Refused("nice", "nice: a negative nice value (" + nice + ") needs an operator or administrator");
        }
        boolean requeue = request.requeue() != null ? request.requeue() : requeueDefault;
        JobControls.Hold hold = request.hold() ? JobControls.Hold.USER : JobControls.Hold.NONE;
        return new Resolved(new JobControls(account, qos, nice, requeue, 0, hold, request.beginTime(),
                request.dependency().trim(), 0, -1, "", 0, false));
    }

    private static boolean allows(List<String> allowed, String name) {
        return allowed.isEmpty() || allowed.stream().anyMatch(a -> a.equalsIgnoreCase("ALL") || a.equals(name));
    }
}
