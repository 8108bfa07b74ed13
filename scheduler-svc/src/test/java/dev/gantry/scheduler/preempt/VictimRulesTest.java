package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.PreemptMode;
import dev.gantry.scheduler.preempt.RunningJobs.Builder;
import dev.gantry.scheduler.preempt.Verdict.Preemptable;
import dev.gantry.scheduler.preempt.Verdict.Protected;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Who may preempt whom: one row per rule, the preemptor pending in {@code hi} unless the row says otherwise. */
class VictimRulesTest {

    static final String TIERS = """
            PreemptType=preempt/partition_prio
            PreemptMode=SUSPEND,GANG
            PartitionName=low Nodes=n[1-2] PriorityTier=10 PreemptMode=requeue GraceTime=30
            PartitionName=med Nodes=n[1-4] PriorityTier=20 PreemptMode=suspend GraceTime=45
            PartitionName=hi Nodes=n[1-4] PriorityTier=30 PreemptMode=off
            PartitionName=other Nodes=n[3-4] PriorityTier=40
            PartitionName=plain Nodes=n[1-4]
            PartitionName=excl Nodes=n[1-4] PriorityTier=30 ExclusiveUser=YES
            PartitionName=lowx Nodes=n[1-4] PriorityTier=5 PreemptMode=cancel ExclusiveUser=YES
            PartitionName=whole Nodes=n[1-4] PriorityTier=5 PreemptMode=cancel OverSubscribe=EXCLUSIVE
            """;

    static final String QOS = """
            PreemptType=preempt/qos
            PreemptMode=REQUEUE,GANG
            PartitionName=low Nodes=n[1-4] PriorityTier=10
            PartitionName=hi Nodes=n[1-4] PriorityTier=30
            QOS=high Priority=100 Preempt=normal,scav,susp
            QOS=scav PreemptMode=cancel
            QOS=susp PreemptMode=suspend
            QOS=peer Priority=50 PreemptMode=requeue,within
            """;

    static Stream<Arguments> tiers() {
        return Stream.of(
                row("a higher tier preempts a lower one, in the victim partition's mode", "", p -> p, v -> v,
                        "preempt REQUEUE"),
                row("the same tier does not", "", p -> p.partition("low"), v -> v,
                        "NOT_OUTRANKED: partition low (PriorityTier=10) is not below partition low (PriorityTier=10)"),
                row("a lower tier does not", "", p -> p.partition("low"), v -> v.partition("med"),
                        "NOT_OUTRANKED: partition med (PriorityTier=20) is not below partition low (PriorityTier=10)"),
                row("PreemptMode=OFF keeps the partition's jobs", "", p -> p.partition("other"),
                        v -> v.partition("hi").on("n3"), "MODE: its PreemptMode is OFF"),
                row("SUSPEND partition", "", p -> p, v -> v.partition("med"), "preempt SUSPEND"),
                row("a partition without a mode uses the cluster's", "", p -> p, v -> v.partition("plain"),
                        "preempt SUSPEND"),
                row("a pending job is not a victim", "", p -> p, Builder::pending, "NOT_RUNNING: is not running"),
                row("a completing job is not a victim", "", p -> p, Builder::completing,
                        "NOT_RUNNING: is not running"),
                row("a suspended job is a victim", "", p -> p, v -> v.suspendedFor(60), "preempt REQUEUE"),
                row("only jobs on the preemptor partition's nodes", "", p -> p.partition("other"),
                        v -> v.partition("plain"), "NO_SHARED_NODE: holds no node of partition other"),
                row("PreemptExemptTime keeps a REQUEUE victim", "PreemptExemptTime=10", p -> p, v -> v.ranFor(120),
                        "EXEMPT_TIME: ran 120s of PreemptExemptTime=600s"),
                row("PreemptExemptTime ends", "PreemptExemptTime=10", p -> p, v -> v.ranFor(600), "preempt REQUEUE"),
                row("PreemptExemptTime does not keep a SUSPEND victim", "PreemptExemptTime=10", p -> p,
                        v -> v.partition("med").ranFor(120), "preempt SUSPEND"),
                row("PreemptMinActiveTime counts from the last resume", "PreemptMinActiveTime=300", p -> p,
                        v -> v.ranFor(3600).resumedAgo(100), "MIN_ACTIVE_TIME: active for 100s since it started or "
                                + "resumed, less than PreemptMinActiveTime=300s"),
                row("PreemptMinActiveTime counts from the start", "PreemptMinActiveTime=300", p -> p,
                        v -> v.ranFor(200), "MIN_ACTIVE_TIME: active for 200s since it started or resumed, less than "
                                + "PreemptMinActiveTime=300s"),
                row("PreemptMinActiveTime applies to SUSPEND too", "PreemptMinActiveTime=300", p -> p,
                        v -> v.partition("med").ranFor(200), "MIN_ACTIVE_TIME: active for 200s since it started or "
                                + "resumed, less than PreemptMinActiveTime=300s"),
                row("PreemptMinActiveTime does not keep a suspended job", "PreemptMinActiveTime=300", p -> p,
                        v -> v.ranFor(3600).suspendedFor(50), "preempt REQUEUE"),
                row("PreemptMaxActiveTime keeps a long runner", "PreemptMaxActiveTime=1800", p -> p,
                        v -> v.ranFor(3600), "MAX_ACTIVE_TIME: has run 3600s, more than PreemptMaxActiveTime=1800s"),
                row("PreemptMaxActiveTime does not count past suspensions", "PreemptMaxActiveTime=1800", p -> p,
                        v -> v.ranFor(3600).suspendedBefore(2000), "preempt REQUEUE"),
                row("PreemptMaxActiveTime does not count the suspension in progress", "PreemptMaxActiveTime=1800",
                        p -> p, v -> v.ranFor(3600).suspendedFor(2000), "preempt REQUEUE"),
                row("min_exempt_priority keeps higher-priority victims", "PreemptParameters=min_exempt_priority=500",
                        p -> p, v -> v.priority(1000), "PRIORITY_EXEMPT: priority 1000 is above "
                                + "PreemptParameters=min_exempt_priority=500"),
                row("min_exempt_priority lets lower-priority victims go", "PreemptParameters=min_exempt_priority=500",
                        p -> p, v -> v.priority(500), "preempt REQUEUE"),
                row("ExclusiveUser: does not preempt another user's job", "", p -> p.partition("excl").user("bob"),
                        v -> v, "EXCLUSIVE_USER: a user-exclusive job does not preempt other users' jobs (except "
                                + "fully exclusive ones)"),
                row("ExclusiveUser: may preempt another user's --exclusive job", "",
                        p -> p.partition("excl").user("bob"), Builder::exclusive, "preempt REQUEUE"),
                row("ExclusiveUser: may preempt another user's job in an OverSubscribe=EXCLUSIVE partition", "",
                        p -> p.partition("excl").user("bob"), v -> v.partition("whole"), "preempt CANCEL"),
                row("ExclusiveUser: preempts its own user's jobs", "", p -> p.partition("excl"), v -> v,
                        "preempt REQUEUE"),
                row("ExclusiveUser: is not preempted by another user's job", "", p -> p.user("bob"),
                        v -> v.partition("lowx"), "EXCLUSIVE_USER: a user-exclusive job is not preempted by other "
                                + "users' jobs"),
                row("ExclusiveUser: is not preempted by another user's fully exclusive job", "",
                        p -> p.user("bob").exclusive(), v -> v.partition("lowx"), "EXCLUSIVE_USER: a user-exclusive "
                                + "job is not preempted by other users' jobs"),
                row("ExclusiveUser: is preempted by its own user's job", "", p -> p, v -> v.partition("lowx"),
                        "preempt CANCEL"));
    }

    static Stream<Arguments> qos() {
        return Stream.of(
                row("a listed QOS is preempted in the cluster's mode", "", p -> p.qos("high"), v -> v,
                        "preempt REQUEUE"),
                row("in its own QOS mode", "", p -> p.qos("high"), v -> v.qos("scav"), "preempt CANCEL"),
                row("an unlisted QOS is not", "", p -> p, v -> v.qos("high"),
                        "NOT_OUTRANKED: QOS normal does not list QOS high in Preempt="),
                row("the same QOS without WITHIN is not", "", p -> p, v -> v,
                        "NOT_OUTRANKED: QOS normal does not list QOS normal in Preempt="),
                row("SUSPEND from a higher-tier partition suspends", "", p -> p.qos("high"),
                        v -> v.qos("susp").partition("low"), "preempt SUSPEND"),
                row("SUSPEND in the same partition time-slices", "", p -> p.qos("high").partition("low"),
                        v -> v.qos("susp").partition("low"), "preempt SUSPEND time-sliced"),
                row("SUSPEND from a lower-tier partition is refused", "", p -> p.qos("high").partition("low"),
                        v -> v.qos("susp").partition("hi"), "MODE: SUSPEND under preempt/qos needs the preemptor in "
                                + "partition hi or in one of a higher PriorityTier than 30"),
                row("WITHIN: a higher job priority preempts in the same QOS", "", p -> p.qos("peer").priority(20),
                        v -> v.qos("peer").priority(10), "preempt REQUEUE"),
                row("WITHIN: a lower job priority does not", "", p -> p.qos("peer").priority(10),
                        v -> v.qos("peer").priority(20), "NOT_OUTRANKED: same QOS peer (WITHIN) but job priority 10 "
                                + "is not above 20"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tiers")
    void partitionPrio(String rule, String extra, UnaryOperator<Builder> preemptor, UnaryOperator<Builder> victim,
            String expected) {
        assertEquals(expected, judge(TIERS + extra + "\n", preemptor.apply(aJob(1).pending().partition("hi")),
                victim.apply(aJob(2).partition("low").on("n1"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("qos")
    void qosPreempt(String rule, String extra, UnaryOperator<Builder> preemptor, UnaryOperator<Builder> victim,
            String expected) {
        assertEquals(expected, judge(QOS + extra + "\n", preemptor.apply(aJob(1).pending().partition("hi")),
                victim.apply(aJob(2).partition("low").on("n1"))));
    }

    @Test
    void preemptNone_preemptsNothing() {
        assertEquals("NOT_OUTRANKED: preemption is off (PreemptType=preempt/none)",
                judge("PartitionName=low Nodes=n1 PriorityTier=1\nPartitionName=hi Nodes=n1 PriorityTier=9\n",
                        aJob(1).pending().partition("hi"), aJob(2).on("n1")));
    }

    @Test
    void exemptions_sayWhenTheyEnd() {
        PreemptSettings s = settings(TIERS + "PreemptExemptTime=10\nPreemptMinActiveTime=300\n");
        var rules = new VictimRules(s);
        var p = Contender.of(aJob(1).pending().partition("hi").build(), s, false);
        var exempt = (Protected) rules.judge(p, Contender.of(aJob(2).on("n1").ranFor(120).build(), s, false), NOW);
        assertEquals(NOW.plusSeconds(480), exempt.until());
        var fresh = (Protected) rules.judge(p, Contender.of(aJob(3).partition("med").on("n1").ranFor(100).build(), s,
                false), NOW);
        assertEquals(NOW.plusSeconds(200), fresh.until());
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "REQUEUE, no limits: its start|low|3600|-1|-3600",
            "REQUEUE: start + PreemptExemptTime|low|3600|-1|-3000",
            "SUSPEND: not PreemptExemptTime, only PreemptMinActiveTime from its start|med|3600|-1|-3300",
            "resumed 100s ago: resume + PreemptMinActiveTime when later|med|3600|100|200",
            "suspended: PreemptMinActiveTime does not apply|med|3600|-2|-3600"})
    void preemptEligibleTime(String rule, String partition, long ranFor, long resumedAgo, long expectedFromNow) {
        String limits = rule.startsWith("REQUEUE, no") ? "" : "PreemptExemptTime=10\nPreemptMinActiveTime=300\n";
        PreemptSettings s = settings(TIERS + limits);
        Builder job = aJob(2).partition(partition).on("n1").ranFor(ranFor);
        if (resumedAgo == -2) {
            job.suspendedFor(50);
        } else if (resumedAgo >= 0) {
            job.resumedAgo(resumedAgo);
        }
        assertEquals(NOW.plusSeconds(expectedFromNow), new VictimRules(s).eligibleTime(job.build()));
    }

    @Test
    void preemptEligibleTime_ofAJobNotStarted_isNone() {
        assertEquals(null, new VictimRules(settings(TIERS)).eligibleTime(aJob(2).pending().build()));
    }

    private static String judge(String config, Builder preemptor, Builder victim) {
        PreemptSettings s = settings(config);
        Verdict v = new VictimRules(s).judge(Contender.of(preemptor.build(), s, false),
                Contender.of(victim.build(), s, false), NOW);
        return switch (v) {
            case Preemptable ok -> "preempt " + ok.mode() + (ok.timeSliced() ? " time-sliced" : "");
            case Protected no -> no.kind() + ": " + no.reason();
        };
    }

    private static Arguments row(String rule, String extra, UnaryOperator<Builder> preemptor,
            UnaryOperator<Builder> victim, String expected) {
        return Arguments.of(rule, extra, preemptor, victim, expected);
    }
}
