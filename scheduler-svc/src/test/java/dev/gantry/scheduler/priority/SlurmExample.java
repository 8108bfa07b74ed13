package dev.gantry.scheduler.priority;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The worked example of Slurm's classic fair-share page (https://slurm.schedmd.com/classic_fair_share.html#example):
 * accounts A (40 shares: B 30 with user1, C 10 with user2 and user3) and D (60: E 25 with user4, F 35 with user5);
 * usage user1 0.2, user2 0.25, user4 0.25 of the cluster's total.
 */
final class SlurmExample {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static final String ACCOUNTS = """
            Account=A Fairshare=40
            Account=B Parent=A Fairshare=30 Users=user1
            Account=C Parent=A Fairshare=10 Users=user2,user3
            Account=D Fairshare=60
            Account=E Parent=D Fairshare=25 Users=user4
            Account=F Parent=D Fairshare=35 Users=user5
            """;

    private SlurmExample() {}

    static ClusterConfig config(String extra) {
        return ConfigParser.parse(Path.of("example.conf"), ACCOUNTS + extra);
    }

    /** The example's usage at T0, in billing-seconds out of a total of 100 (30 by a former association). */
    static UsageLedger usage() {
        UsageLedger ledger = new UsageLedger(0);
        ledger.charge("B", "user1", 20, T0);
        ledger.charge("C", "user2", 25, T0);
        ledger.charge("E", "user4", 25, T0);
        ledger.charge("gone", "someone", 30, T0); // counts in the cluster's total only
        return ledger;
    }

    static AssociationTree tree() {
        return AssociationTree.of(config("").accounting());
    }
}
