package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.resources.GresSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A valid file in slurm.conf syntax: https://slurm.schedmd.com/slurm.conf.html. */
class ConfigParserTest {

    static final Path FILE = Path.of("gantry.conf");

    static ClusterConfig parse(String text) {
        return ConfigParser.parse(FILE, text);
    }

    private static final String FULL = """
            # A small cluster
            ClusterName=tiny
            SlurmctldHost=head01
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core_Memory
            SchedulerType=sched/backfill
            SchedulerParameters=bf_window=60,bf_max_job_test=100
            PreemptType=preempt/partition_prio
            PreemptMode=SUSPEND,GANG
            KillWait=10
            MinJobAge=60
            GresTypes=gpu

            NodeName=DEFAULT RealMemory=4G State=IDLE
            NodeName=n[01-04] CPUs=8 Sockets=2 CoresPerSocket=4 ThreadsPerCore=1 Features=ib,avx2 Weight=10
            NodeName=gpu1 CPUs=16 ThreadsPerCore=2 RealMemory=64000 Gres=gpu:2 State=DOWN
            NodeName=big  Sockets=2 CoresPerSocket=8 ThreadsPerCore=2 Port=7001

            PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP
            PartitionName=debug Nodes=n[01-02] Default=YES MaxTime=30 DefaultTime=10 MaxNodes=2 PriorityTier=10
            PartitionName=batch Nodes=n[01-04],big MaxTime=UNLIMITED DefaultTime=2:00:00 MaxNodes=UNLIMITED \\
                OverSubscribe=FORCE:2 PreemptMode=REQUEUE
            PartitionName=gpu Nodes=gpu1 MaxTime=INFINITE State=DOWN Hidden=YES AllowAccounts=phys,chem
            PartitionName=all Nodes=ALL DefaultTime=1-0
            Account=phys
            Account=chem
            """;

    @Test
    void fullFile_globalKeys() {
        ClusterConfig c = parse(FULL);

        assertEquals(FILE, c.source());
        assertEquals("tiny", c.get(Keys.CLUSTER_NAME));
        assertEquals(List.of("head01"), c.get(Keys.SLURMCTLD_HOST));
        assertEquals("select/cons_tres", c.get(Keys.SELECT_TYPE));
        assertEquals(SelectTypeParameters.CR_CORE_MEMORY, c.get(Keys.SELECT_TYPE_PARAMETERS));
        assertEquals(new BackfillSettings(3600, 60, 100, false, 0, 30, false), c.get(Keys.SCHEDULER_PARAMETERS).backfill());
        assertEquals("preempt/partition_prio", c.get(Keys.PREEMPT_TYPE));
        assertEquals(new PreemptMode(PreemptAction.SUSPEND, true, false), c.get(Keys.PREEMPT_MODE));
        assertEquals(10L, c.get(Keys.KILL_WAIT));
        assertEquals(60L, c.get(Keys.MIN_JOB_AGE));
        assertEquals(List.of(), c.warnings());
    }

    /** Slurm lists its backup controllers as more SlurmctldHost= lines; the first is the primary. */
    @Test
    void slurmctldHost_repeats_oneLinePerController_inOrder_butNotTheSameHostTwice() {
        assertEquals(List.of("ctl0", "ctl1"), parse("SlurmctldHost=ctl0\nSlurmctldHost=ctl1\n").get(Keys.SLURMCTLD_HOST));
        assertEquals(List.of("localhost"), parse("ClusterName=x\n").get(Keys.SLURMCTLD_HOST));
        ConfigException e = assertThrows(ConfigException.class, () -> parse("SlurmctldHost=ctl0\nSlurmctldHost=ctl0\n"));
        assertTrue(e.getMessage().contains(":2: SlurmctldHost: ctl0 is already listed"), e.getMessage());
    }

    @Test
    void fullFile_nodesInFileOrderWithDefaultsApplied() {
        ClusterConfig c = parse(FULL);

        assertEquals(List.of("n01", "n02", "n03", "n04", "gpu1", "big"), c.nodes().stream().map(NodeConfig::name).toList());
        assertEquals(new NodeConfig("n03", "localhost", 8, 2, 4, 1, 4096, List.of("ib", "avx2"), List.of(), 10, ConfiguredNodeState.IDLE, 0, 15),
                c.node("n03").orElseThrow());
        assertEquals(new NodeConfig("gpu1", "localhost", 16, 8, 1, 2, 64000, List.of(), List.of(new GresSpec("gpu", "", 2)), 1, ConfiguredNodeState.DOWN, 0, 16),
                c.node("gpu1").orElseThrow());
        assertEquals(new NodeConfig("big", "localhost", 32, 2, 8, 2, 4096, List.of(), List.of(), 1, ConfiguredNodeState.IDLE, 7001, 17),
                c.node("big").orElseThrow());
    }

    @Test
    void fullFile_partitions() {
        ClusterConfig c = parse(FULL);

        assertEquals(List.of("debug", "batch", "gpu", "all"), c.partitions().stream().map(PartitionConfig::name).toList());
        PartitionConfig debug = c.partition("debug").orElseThrow();
        assertEquals(List.of("n01", "n02"), debug.nodes());
        assertTrue(debug.isDefault());
        assertEquals(1800, debug.maxTimeSeconds());
        assertEquals(600, debug.defaultTimeSeconds());
        assertEquals(2, debug.maxNodes());
        assertEquals(10, debug.priorityTier());
        assertEquals(PartitionState.UP, debug.state());
        assertEquals(20, debug.line());

        PartitionConfig batch = c.partition("batch").orElseThrow();
        assertEquals(List.of("n01", "n02", "n03", "n04", "big"), batch.nodes());
        assertFalse(batch.isDefault());
        assertEquals(-1, batch.maxTimeSeconds());
        assertEquals(7200, batch.defaultTimeSeconds());
        assertEquals(-1, batch.maxNodes());
        assertEquals(new OverSubscribe(OverSubscribe.Kind.FORCE, 2, true), batch.overSubscribe());
        assertEquals(new PreemptMode(PreemptAction.REQUEUE, false, false), batch.preemptMode());
        assertEquals(21, batch.line());

        PartitionConfig gpu = c.partition("gpu").orElseThrow();
        assertEquals(-1, gpu.maxTimeSeconds());
        assertEquals(PartitionState.DOWN, gpu.state());
        assertTrue(gpu.hidden());
        assertEquals(List.of("phys", "chem"), gpu.allowAccounts());

        PartitionConfig all = c.partition("all").orElseThrow();
        assertEquals(c.nodes().stream().map(NodeConfig::name).toList(), all.nodes());
        assertEquals(86400, all.maxTimeSeconds(), "MaxTime from PartitionName=DEFAULT");
        assertEquals(86400, all.defaultTimeSeconds());

        assertEquals("debug", c.defaultPartition().orElseThrow().name());
    }

    @Test
    void partitionWithoutSettings_getsSlurmDefaults() {
        PartitionConfig p = parse("PartitionName=p").partition("p").orElseThrow();

        assertEquals(new PartitionConfig("p", List.of(), false, -1, -1, PartitionState.UP, -1, 0, 1, 1, OverSubscribe.NO, null, 0,
                List.of("ALL"), List.of("ALL"), 0, 0, 0, 0, false, false, BackfillPolicy.FIRSTFIT, 1), p);
    }

    @Test
    void backfillPolicy_isPerPartitionAndCaseInsensitive() {
        ClusterConfig c = parse("PartitionName=low BackfillPolicy=preempt\nPartitionName=high");

        assertEquals(BackfillPolicy.PREEMPT, c.partition("low").orElseThrow().backfillPolicy());
        assertEquals(BackfillPolicy.FIRSTFIT, c.partition("high").orElseThrow().backfillPolicy());
    }

    @Test
    void nodeWithoutSettings_getsSlurmDefaults() {
        assertEquals(new NodeConfig("n1", "localhost", 1, 1, 1, 1, 1, List.of(), List.of(), 1, ConfiguredNodeState.UNKNOWN, 0, 1),
                parse("NodeName=n1").node("n1").orElseThrow());
    }

    @Test
    void withoutDefaultYes_theFirstPartitionIsTheDefault() {
        ClusterConfig c = parse("PartitionName=a\nPartitionName=b\n");
        assertEquals("a", c.defaultPartition().orElseThrow().name());
    }

    @Test
    void perNodePorts_comeFromAPortRange() {
        ClusterConfig c = parse("NodeName=n[1-3] Port=[7001-7003]");
        assertEquals(List.of(7001, 7002, 7003), c.nodes().stream().map(NodeConfig::port).toList());
    }

    @Test
    void nodeHostname_andNodeAddrNameTheHost() {
        ClusterConfig c = parse("NodeName=a NodeHostname=host-a\nNodeName=b NodeAddr=10.0.0.2\n");
        assertEquals("host-a", c.node("a").orElseThrow().hostname());
        assertEquals("10.0.0.2", c.node("b").orElseThrow().hostname());
    }

    @ParameterizedTest(name = "MaxTime={0} is {1} s")
    @CsvSource({"30, 1800", "30:00, 1800", "1:00:00, 3600", "2-12, 216000", "2-12:30, 217800", "2-12:30:05, 217805",
        "UNLIMITED, -1", "INFINITE, -1", "unlimited, -1"})
    void maxTime_acceptsEverySlurmTimeForm(String value, long seconds) {
        assertEquals(seconds, parse("PartitionName=p MaxTime=" + value).partition("p").orElseThrow().maxTimeSeconds());
    }

    @Test
    void keysAndKeywordValuesAreCaseInsensitive() {
        ClusterConfig c = parse("""
                clustername=lower
                nodename=n1 cpus=2 state=idle
                partitionname=p nodes=n1 default=yes state=drain
                """);
        assertEquals("lower", c.get(Keys.CLUSTER_NAME));
        assertEquals(ConfiguredNodeState.IDLE, c.node("n1").orElseThrow().state());
        assertEquals(2, c.node("n1").orElseThrow().cpus());
        assertTrue(c.partition("p").orElseThrow().isDefault());
        assertEquals(PartitionState.DRAIN, c.partition("p").orElseThrow().state());
    }

    @Test
    void quotedValues_keepSpacesAndHashes() {
        ClusterConfig c = parse("Prolog=\"/opt/pro log.sh # not a comment\" # a comment\nEpilog=/bin/true");
        assertEquals("/opt/pro log.sh # not a comment", c.get(Keys.PROLOG));
        assertEquals("/bin/true", c.get(Keys.EPILOG));
    }

    @Test
    void windowsLineEndingsAndSeveralKeysPerLine() {
        ClusterConfig c = parse("KillWait=5 MinJobAge=6\r\nClusterName=crlf\r\n");
        assertEquals(5L, c.get(Keys.KILL_WAIT));
        assertEquals(6L, c.get(Keys.MIN_JOB_AGE));
        assertEquals("crlf", c.get(Keys.CLUSTER_NAME));
    }

    @Test
    void parseOfAPath_readsTheFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("slurm.conf"), "ClusterName=ondisk\n");
        assertEquals("ondisk", ConfigParser.parse(file).get(Keys.CLUSTER_NAME));
    }

    @Test
    void parseOfAMissingPath_failsNamingIt(@TempDir Path dir) {
        Path missing = dir.resolve("nope.conf");
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigParser.parse(missing));
        assertEquals(1, e.problems().size());
        assertTrue(e.problems().get(0).startsWith(missing + ": cannot read"), e.getMessage());
    }
}
