package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each factor of Slurm's multifactor formula, weighted and summed; nice subtracts; the total stays >= 1. */
class MultifactorPriorityTest {

    private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");
    private static final long DAY = 86400;

    /** 4 nodes × 8 CPUs × 16 GiB (2 GPUs on n4); partitions lo (factor 1) and hi (factor 4); QOS up to 100. */
    private static ClusterConfig config(String weights) {
        return ConfigParser.parse(Path.of("t.conf"), """
                GresTypes=gpu
                NodeName=DEFAULT CPUs=8 RealMemory=16G
                NodeName=n[1-3]
                NodeName=n4 Gres=gpu:2
                PartitionName=lo Nodes=n[1-4] PriorityJobFactor=1
                PartitionName=hi Nodes=n[1-2] PriorityJobFactor=4
                PartitionName=zero Nodes=n1 PriorityJobFactor=0
                QOS=low Priority=25
                QOS=high Priority=100
                Account=chem Users=alice
                """ + weights);
    }

    private static PriorityInput job(String partition, String qos, long waitedSeconds, TresAmount tres, long nice) {
        return new PriorityInput(7, "alice", "chem", partition, qos, NOW.getEpochSecond() - waitedSeconds, tres, nice, 0);
    }

    private static final FairShareTable NO_USAGE = FairShare.of(config("")).table(NOW);

    @ParameterizedTest(name = "waited {0} s of PriorityMaxAge 10 days: age {1}")
    @CsvSource({"0, 0", "86400, 1000", "432000, 5000", "864000, 10000", "8640000, 10000", "-3600, 0"})
    void age_growsToPriorityMaxAgeThenSaturates(long waited, double age) {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightAge=10000\nPriorityMaxAge=10-0"));
        PriorityFactors f = m.factors(job("lo", "normal", waited, TresAmount.of(1, 0, 1), 0), NOW, NO_USAGE);
        assertEquals(age, f.age(), 1e-9);
        assertEquals(Math.max(1, (long) age), f.priority());
    }

    @Test
    void age_isZeroUntilEligible() {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightAge=10000"));
        PriorityInput held = new PriorityInput(1, "alice", "chem", "lo", "normal", PriorityInput.NOT_ELIGIBLE,
                TresAmount.of(1, 0, 1), 0, 0);
        assertEquals(0, m.factors(held, NOW, NO_USAGE).age());
    }

    @ParameterizedTest(name = "partition {0}: {1}")
    @CsvSource({"lo, 250", "hi, 1000", "zero, 0", "unknown, 0"})
    void partition_isJobFactorOverTheLargest(String partition, double weighted) {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightPartition=1000"));
        assertEquals(weighted, m.factors(job(partition, "normal", 0, TresAmount.of(1, 0, 1), 0), NOW, NO_USAGE)
                .partitionFactor(), 1e-9);
    }

    @ParameterizedTest(name = "QOS {0}: {1}, and {2} without normalization")
    @CsvSource({"normal, 0, 0", "low, 250, 25000", "high, 1000, 100000", "unknown, 0, 0"})
    void qos_isPriorityOverTheLargest(String qos, double weighted, double raw) {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightQOS=1000"));
        assertEquals(weighted, m.factors(job("lo", qos, 0, TresAmount.of(1, 0, 1), 0), NOW, NO_USAGE).qosFactor(), 1e-9);
        MultifactorPriority flat = MultifactorPriority.of(config("PriorityWeightQOS=1000\nPriorityFlags=NO_NORMAL_QOS"));
        assertEquals(raw, flat.factors(job("lo", qos, 0, TresAmount.of(1, 0, 1), 0), NOW, NO_USAGE).qosFactor(), 1e-9);
    }

    @ParameterizedTest(name = "{0} nodes, {1} CPUs: size {2} (favor small {3})")
    @CsvSource({"1, 1, 0.140625, 0.859375", "4, 32, 1.0, 0.0", "2, 8, 0.375, 0.625", "1, 0, 0.25, 0.75"})
    void jobSize_isNodesAndCpusOverTheCluster(long nodes, long cpus, double large, double small) {
        TresAmount tres = TresAmount.of(cpus, 0, nodes);
        MultifactorPriority big = MultifactorPriority.of(config("PriorityWeightJobSize=1000"));
        MultifactorPriority little = MultifactorPriority.of(config("PriorityWeightJobSize=1000\nPriorityFavorSmall=YES"));
        assertEquals(1000 * large, big.factors(job("lo", "normal", 0, tres, 0), NOW, NO_USAGE).jobSize(), 1e-9);
        assertEquals(1000 * small, little.factors(job("lo", "normal", 0, tres, 0), NOW, NO_USAGE).jobSize(), 1e-9);
    }

    @Test
    void tres_isTheJobsShareOfItsPartition() {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=3000"));
        // partition lo: 32 CPUs, 64 GiB, 2 GPUs
        PriorityFactors f = m.factors(job("lo", "normal", 0, TresAmount.of(8, 16 * 1024, 1, 1), 0), NOW, NO_USAGE);
        assertEquals(Map.of("cpu", 250.0, "mem", 500.0, "gres/gpu", 1500.0), f.tres());
        assertEquals(2250, f.priority());
        assertEquals("cpu=250,mem=500,gres/gpu=1500", f.tresText(List.of("cpu", "mem", "gres/gpu")));
    }

    @Test
    void tres_withNoNormalTres_isPerUnit() {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightTRES=CPU=100,Mem=20G\n"
                + "PriorityFlags=NO_NORMAL_TRES"));
        PriorityFactors f = m.factors(job("hi", "normal", 0, TresAmount.of(4, 8 * 1024, 1), 0), NOW, NO_USAGE);
        assertEquals(400, f.tres().get("cpu"), 1e-9);
        assertEquals(160, f.tres().get("mem"), 1e-9);
        assertEquals(560, f.priority());
    }

    @ParameterizedTest(name = "nice {0}: {1}")
    @CsvSource({"0, 5000", "100, 4900", "-100, 5100", "4999, 1", "5000, 1", "100000, 1"})
    void nice_subtracts_andTheTotalStaysAtLeastOne(long nice, long priority) {
        MultifactorPriority m = MultifactorPriority.of(config("PriorityWeightAge=10000\nPriorityMaxAge=10-0"));
        PriorityFactors f = m.factors(job("lo", "normal", 5 * DAY, TresAmount.of(1, 0, 1), nice), NOW, NO_USAGE);
        assertEquals(priority, f.priority());
        assertEquals(nice, f.nice());
    }

    @Test
    void fairShare_isWeightedFactorOfTheJobsAssociation() {
        ClusterConfig c = config("PriorityWeightFairshare=10000\nAccount=bio Users=bob");
        FairShare fs = FairShare.of(c);
        fs.charge("chem", "alice", 100, NOW);
        MultifactorPriority m = MultifactorPriority.of(c);
        FairShareTable t = fs.table(NOW);
        // alice: S = 0.5, U = 1: 2^-2; bob: no usage in his account: 1
        assertEquals(2500, m.factors(job("lo", "normal", 0, TresAmount.of(1, 0, 1), 0), NOW, t).fairshare(), 1e-9);
        PriorityInput bob = new PriorityInput(8, "bob", "bio", "lo", "normal", NOW.getEpochSecond(),
                TresAmount.of(1, 0, 1), 0, 0);
        assertEquals(10000, m.priority(bob, NOW, t));
    }

    @Test
    void total_isTheSumOfEveryWeightedFactor_andBulkAgrees() {
        ClusterConfig c = config("""
                PriorityWeightAge=1000
                PriorityWeightFairshare=2000
                PriorityWeightJobSize=300
                PriorityWeightPartition=400
                PriorityWeightQOS=500
                PriorityWeightTRES=CPU=64
                """);
        MultifactorPriority m = MultifactorPriority.of(c);
        PriorityInput j = new PriorityInput(9, "alice", "chem", "hi", "low", NOW.getEpochSecond() - 7 * DAY / 2,
                TresAmount.of(4, 0, 1), 10, 20);
        PriorityFactors f = m.factors(j, NOW, NO_USAGE);
        double sum = 20 + f.age() + f.fairshare() + f.jobSize() + f.partitionFactor() + f.qosFactor() + f.tres().get("cpu")
                - 10;
        assertEquals(500 + 2000 + 300 * (1.0 / 4 + 4.0 / 32) / 2 + 400 + 125 + 64 * 4.0 / 16 + 20 - 10, sum, 1e-9);
        assertEquals((long) sum, f.priority());
        assertEquals(f.priority(), m.priority(j, NOW, NO_USAGE));
        assertEquals(f.priority(), m.priorities(List.of(j, j), NOW, NO_USAGE)[1]);
        assertEquals(20, f.site());
    }
}
