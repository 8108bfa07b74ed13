package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** QOS=, Account= and User= lines: values, defaults, resolution, and every problem as file:line: key: what. */
class AccountingParserTest {

    private static final Path FILE = Path.of("acct.conf");

    private static ClusterConfig parse(String text) {
        return ConfigParser.parse(FILE, text);
    }

    private static List<String> problems(String text) {
        return assertThrows(ConfigException.class, () -> parse(text)).problems();
    }

    @Test
    void noAccountingLines_giveSlurmsDefaults() {
        ClusterConfig c = parse("");
        assertEquals(List.of(QosConfig.NORMAL), List.copyOf(c.qos()));
        AccountConfig root = c.account("root").orElseThrow();
        assertEquals(List.of("normal"), root.qos());
        assertEquals("normal", root.defaultQos());
        assertTrue(root.isRoot());
        assertEquals(List.of(), List.copyOf(c.users()));
    }

    @Test
    void qosLine_everyField() {
        QosConfig q = parse("""
                QOS=buyin Priority=3000 Preempt=normal,scavenger PreemptMode=requeue GraceTime=120 \\
                  PreemptExemptTime=1:00:00 MaxWall=7-0 MaxJobsPerUser=10 MaxSubmitJobsPerUser=UNLIMITED \\
                  GrpTRES=cpu=512,mem=2T,gres/gpu=16 MaxTRESPerUser=CPU=64,Mem=256G,node=-1 UsageFactor=0.5 \\
                  Flags=denyonlimit,NoDecay Description="paid for"
                QOS=scavenger
                """).qos("buyin").orElseThrow();
        assertEquals(3000, q.priority());
        assertEquals(List.of("normal", "scavenger"), q.preempt());
        assertEquals(new PreemptMode(PreemptAction.REQUEUE, false, false), q.preemptMode());
        assertEquals(120, q.graceTimeSeconds());
        assertEquals(3600, q.preemptExemptTimeSeconds());
        assertEquals(7 * 86400, q.maxWallSeconds());
        assertEquals(10, q.maxJobsPerUser());
        assertEquals(QosConfig.UNLIMITED, q.maxSubmitJobsPerUser());
        assertEquals(Map.of("cpu", 512L, "mem", 2L * 1024 * 1024, "gres/gpu", 16L), q.grpTres().limits());
        assertEquals(Map.of("cpu", 64L, "mem", 256L * 1024), q.maxTresPerUser().limits(), "node=-1 is unlimited");
        assertEquals(-1, q.maxTresPerUser().limit("node"));
        assertEquals(0.5, q.usageFactor());
        assertEquals(List.of("DenyOnLimit", "NoDecay"), q.flags());
        assertTrue(q.hasFlag("nodecay"));
        assertFalse(q.hasFlag("NoReserve"));
        assertEquals("paid for", q.description());
        assertEquals(1, q.line());
    }

    @Test
    void qosLine_defaultsAreUnlimited() {
        QosConfig q = parse("QOS=plain").qos("plain").orElseThrow();
        assertEquals(new QosConfig("plain", 0, List.of(), null, 0, -1, -1, -1, -1, TresLimits.UNLIMITED,
                TresLimits.UNLIMITED, 1.0, List.of(), "", 1), q);
        assertEquals(List.of("normal", "plain"), parse("QOS=plain").qos().stream().map(QosConfig::name).toList(),
                "normal still exists");
    }

    @Test
    void configuredNormal_replacesTheImplicitOne() {
        ClusterConfig c = parse("QOS=normal Priority=10");
        assertEquals(1, c.qos().size());
        assertEquals(10, c.qos("normal").orElseThrow().priority());
    }

    @Test
    void accountsAndUsers_resolveInAnyOrder() {
        ClusterConfig c = parse("""
                Account=physics Parent=science Fairshare=40 Users=alice,bob QOS=normal,buyin DefaultQOS=buyin
                Account=science Fairshare=60 Description="all sciences"
                Account=chem Parent=science Users=bob
                QOS=buyin Priority=3000
                User=bob DefaultAccount=chem Fairshare=3 AdminLevel=Operator
                User=carol DefaultAccount=chem AdminLevel=admin
                """);
        AccountConfig physics = c.account("physics").orElseThrow();
        assertEquals("science", physics.parent());
        assertEquals(40, physics.fairshare());
        assertEquals(List.of("alice", "bob"), physics.users());
        assertEquals(List.of("normal", "buyin"), physics.qos());
        assertEquals("buyin", physics.defaultQos());
        AccountConfig science = c.account("science").orElseThrow();
        assertEquals("root", science.parent());
        assertEquals("all sciences", science.description());
        assertEquals(List.of("normal"), science.qos(), "no QOS=: the parent's (root: normal)");
        AccountConfig chem = c.account("chem").orElseThrow();
        assertEquals(List.of("bob", "carol"), chem.users(), "DefaultAccount= makes carol a member");
        assertEquals(1, chem.fairshare(), "Fairshare defaults to 1");

        UserConfig alice = c.user("alice").orElseThrow();
        assertEquals(new UserConfig("alice", "physics", 1, UserConfig.AdminLevel.NONE, 0), alice,
                "listed only: first account, 1 share");
        assertEquals(new UserConfig("bob", "chem", 3, UserConfig.AdminLevel.OPERATOR, 5), c.user("bob").orElseThrow());
        assertEquals(UserConfig.AdminLevel.ADMINISTRATOR, c.user("carol").orElseThrow().adminLevel());
        assertEquals(List.of("physics", "chem"), c.accounting().accountsOf("bob"));
        assertEquals(List.of("physics", "chem"), c.accounting().children("science"));
        assertEquals(List.of("science"), c.accounting().children("root"));
        assertEquals(3000, c.accounting().maxQosPriority());
    }

    @Test
    void userLineWithoutDefaultAccount_takesTheFirstAccountListingIt() {
        ClusterConfig c = parse("""
                User=dan Fairshare=5
                Account=a Users=eve
                Account=b Users=dan
                Account=c Users=dan
                """);
        assertEquals("b", c.user("dan").orElseThrow().defaultAccount());
        assertEquals(5, c.user("dan").orElseThrow().fairshare());
    }

    @Test
    void defaultQos_inheritsTheParentsWhenAllowed_elseTheFirstAllowed() {
        ClusterConfig c = parse("""
                QOS=high
                QOS=low
                Account=top QOS=normal,high DefaultQOS=high
                Account=mid Parent=top
                Account=leaf Parent=mid QOS=low,normal
                """);
        assertEquals("high", c.account("mid").orElseThrow().defaultQos());
        assertEquals(List.of("normal", "high"), c.account("mid").orElseThrow().qos());
        assertEquals("low", c.account("leaf").orElseThrow().defaultQos());
    }

    @Test
    void rootMayBeConfigured() {
        ClusterConfig c = parse("QOS=fast\nAccount=root QOS=normal,fast Users=ops");
        assertEquals(List.of("normal", "fast"), c.account("root").orElseThrow().qos());
        assertEquals("root", c.user("ops").orElseThrow().defaultAccount());
    }

    @Test
    void partitionsMayNameConfiguredAccountsAndQos() {
        ClusterConfig c = parse("QOS=gpu\nAccount=phys\nPartitionName=p AllowAccounts=phys,root AllowQos=gpu,normal");
        assertEquals(List.of("phys", "root"), c.partition("p").orElseThrow().allowAccounts());
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                bad("unknown QOS key", "QOS=a Colour=red",
                        "acct.conf:1: Colour: unknown key (QOS, Priority, Preempt, PreemptMode, GraceTime, "
                                + "PreemptExemptTime, MaxWall, MaxJobsPerUser, MaxSubmitJobsPerUser, GrpTRES, "
                                + "MaxTRESPerUser, UsageFactor, Flags, Description)"),
                bad("unknown Account key", "Account=a Colour=red",
                        "acct.conf:1: Colour: unknown key (Account, Parent, Fairshare, Users, QOS, DefaultQOS, "
                                + "Description)"),
                bad("unknown User key", "User=u Colour=red",
                        "acct.conf:1: Colour: unknown key (User, DefaultAccount, Fairshare, AdminLevel)"),
                bad("key twice", "QOS=a Priority=1 priority=2", "acct.conf:1: priority: given twice on one line"),
                bad("bad QOS name", "QOS=a/b", "acct.conf:1: QOS: 'a/b' is not a valid name"),
                bad("empty account name", "Account=", "acct.conf:1: Account: '' is not a valid name"),
                bad("QOS twice", "QOS=a\nQOS=a", "acct.conf:2: QOS: a is already defined on line 1"),
                bad("account twice", "Account=a\nAccount=a", "acct.conf:2: Account: a is already defined on line 1"),
                bad("user twice", "Account=a Users=u\nUser=u\nUser=u", "acct.conf:3: User: u is already defined on line 2"),
                bad("negative priority", "QOS=a Priority=-1", "acct.conf:1: Priority: -1 is out of range 0..2147483647"),
                bad("bad MaxWall", "QOS=a MaxWall=1h", "acct.conf:1: MaxWall: Invalid time specification '1h'"),
                bad("bad GraceTime", "QOS=a GraceTime=soon", "acct.conf:1: GraceTime: 'soon' is not a whole number of seconds"),
                bad("bad PreemptMode", "QOS=a PreemptMode=KILL",
                        "acct.conf:1: PreemptMode: 'KILL' is not one of OFF, CANCEL, REQUEUE, SUSPEND, GANG, WITHIN"),
                bad("bad MaxJobsPerUser", "QOS=a MaxJobsPerUser=-2",
                        "acct.conf:1: MaxJobsPerUser: -2 is out of range 0..2147483647"),
                bad("bad GrpTRES TRES", "QOS=a GrpTRES=cpus=4",
                        "acct.conf:1: GrpTRES: 'cpus' is not a TRES (cpu, mem, node, billing, gres/NAME)"),
                bad("bad GrpTRES count", "QOS=a GrpTRES=cpu=many", "acct.conf:1: GrpTRES: 'cpu=many': 'many' is not a whole number"),
                bad("bad GrpTRES memory", "QOS=a GrpTRES=mem=4X", "acct.conf:1: GrpTRES: invalid memory unit 'X' in '4X' (use K, M, G or T)"),
                bad("GrpTRES item without a count", "QOS=a GrpTRES=cpu", "acct.conf:1: GrpTRES: 'cpu' is not TRES=count"),
                bad("negative GrpTRES", "QOS=a GrpTRES=cpu=-5",
                        "acct.conf:1: GrpTRES: 'cpu=-5': a limit is >= 0, or -1 for unlimited"),
                bad("empty Preempt item", "QOS=a Preempt=normal,,normal",
                        "acct.conf:1: Preempt: 'normal,,normal' has an empty list item"),
                bad("GrpTRES twice", "QOS=a MaxTRESPerUser=cpu=1,CPU=2", "acct.conf:1: MaxTRESPerUser: 'cpu' is given twice"),
                bad("negative UsageFactor", "QOS=a UsageFactor=-1", "acct.conf:1: UsageFactor: '-1' must be a finite number >= 0"),
                bad("bad UsageFactor", "QOS=a UsageFactor=lots", "acct.conf:1: UsageFactor: 'lots' is not a number"),
                bad("bad flag", "QOS=a Flags=NoDecay,Fast", "acct.conf:1: Flags: 'Fast' is not one of DenyOnLimit, "
                        + "EnforceUsageThreshold, NoDecay, NoReserve, OverPartQOS, PartitionMaxNodes, PartitionMinNodes, "
                        + "PartitionTimeLimit, RequiresReservation, UsageFactorSafe"),
                bad("Preempt names unknown QOS", "QOS=a Preempt=ghost", "acct.conf:1: Preempt: unknown QOS ghost"),
                bad("bad Fairshare", "Account=a Fairshare=parent", "acct.conf:1: Fairshare: 'parent' is not a whole number"),
                bad("negative user Fairshare", "Account=a Users=u\nUser=u Fairshare=-3",
                        "acct.conf:2: Fairshare: -3 is out of range 0..2147483647"),
                bad("bad user name in Users", "Account=a Users=u,b@d", "acct.conf:1: Users: 'b@d' is not a valid user name"),
                bad("user listed twice", "Account=a Users=u,u", "acct.conf:1: Users: a user is listed twice"),
                bad("unknown parent", "Account=a\nAccount=b Parent=ghost", "acct.conf:2: Parent: unknown account ghost"),
                bad("root with a parent", "Account=a\nAccount=root Parent=a", "acct.conf:2: Parent: root has no parent"),
                bad("self parent", "Account=a Parent=a", "acct.conf:1: Parent: accounts form a cycle: a -> a"),
                bad("account QOS unknown", "Account=a QOS=normal,ghost", "acct.conf:1: QOS: unknown QOS ghost"),
                bad("DefaultQOS unknown", "Account=a DefaultQOS=ghost", "acct.conf:1: DefaultQOS: unknown QOS ghost"),
                bad("DefaultQOS not allowed", "QOS=fast\nAccount=a DefaultQOS=fast",
                        "acct.conf:2: DefaultQOS: fast is not in this account's QOS list normal"),
                bad("DefaultAccount unknown", "User=u DefaultAccount=ghost", "acct.conf:1: DefaultAccount: unknown account ghost"),
                bad("user in no account", "User=u", "acct.conf:1: User: u belongs to no account (give DefaultAccount= "
                        + "or list the user in an account's Users=)"),
                bad("bad AdminLevel", "Account=a Users=u\nUser=u AdminLevel=God",
                        "acct.conf:2: AdminLevel: 'God' is not one of None, Operator, Administrator"),
                bad("partition names unknown account", "PartitionName=p AllowAccounts=phys",
                        "acct.conf:1: AllowAccounts: unknown account phys"),
                bad("partition names unknown QOS", "PartitionName=p AllowQos=ALL,gold",
                        "acct.conf:1: AllowQos: unknown QOS gold"));
    }

    private static Arguments bad(String name, String text, String problem) {
        return Arguments.of(name, text, problem);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badLines")
    void badLine_isReportedOnceWithFileLineAndKey(String name, String text, String problem) {
        assertEquals(List.of(problem), problems(text));
    }

    @Test
    void withQos_addsOrReplacesAQos_checkedAsALineWouldBe() {
        Accounting a = parse("QOS=low Priority=1").accounting();
        QosConfig high = new QosConfig("high", 500, List.of("low"), PreemptMode.parse("REQUEUE"), 0, -1, -1, -1, -1,
                TresLimits.UNLIMITED, TresLimits.UNLIMITED, 1.0, List.of(), "", 0);
        Accounting b = a.withQos(high);
        assertEquals(List.of("normal", "low", "high"), List.copyOf(b.qos().keySet()));
        assertEquals(500, b.maxQosPriority());
        assertEquals(1, a.maxQosPriority(), "the original is unchanged");
        Accounting c = b.withQos(new QosConfig("low", 7, List.of(), null, 0, -1, -1, -1, -1, TresLimits.UNLIMITED,
                TresLimits.UNLIMITED, 2.0, List.of(), "", 0));
        assertEquals(7, c.qos("low").orElseThrow().priority());
        assertEquals("Preempt: unknown QOS ghost", assertThrows(IllegalArgumentException.class,
                () -> a.withQos(new QosConfig("x", 0, List.of("ghost"), null, 0, -1, -1, -1, -1, TresLimits.UNLIMITED,
                        TresLimits.UNLIMITED, 1.0, List.of(), "", 0))).getMessage());
        assertEquals("UsageFactor: -1.0 must be a finite number >= 0", assertThrows(IllegalArgumentException.class,
                () -> a.withQos(new QosConfig("x", 0, List.of(), null, 0, -1, -1, -1, -1, TresLimits.UNLIMITED,
                        TresLimits.UNLIMITED, -1.0, List.of(), "", 0))).getMessage());
        assertEquals("QOS: 'a b' is not a valid name", assertThrows(IllegalArgumentException.class,
                () -> a.withQos(new QosConfig("a b", 0, List.of(), null, 0, -1, -1, -1, -1, TresLimits.UNLIMITED,
                        TresLimits.UNLIMITED, 1.0, List.of(), "", 0))).getMessage());
    }

    @Test
    void cycle_isReportedOnceNamingItsAccounts() {
        assertEquals(List.of("acct.conf:1: Parent: accounts form a cycle: a -> c -> b -> a"),
                problems("Account=a Parent=c\nAccount=b Parent=a\nAccount=c Parent=b\nAccount=d Parent=b"));
    }

    @Test
    void severalProblems_areAllReported() {
        assertEquals(List.of("acct.conf:1: Priority: 'high' is not a whole number",
                "acct.conf:2: Parent: unknown account nowhere"),
                problems("QOS=a Priority=high\nAccount=b Parent=nowhere"));
    }
}
