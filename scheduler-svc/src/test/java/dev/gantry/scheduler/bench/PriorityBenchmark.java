package dev.gantry.scheduler.bench;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.scheduler.priority.FairShare;
import dev.gantry.scheduler.priority.FairShareTable;
import dev.gantry.scheduler.priority.MultifactorPriority;
import dev.gantry.scheduler.priority.PriorityInput;
import dev.gantry.scheduler.priority.ShareRow;
import dev.gantry.scheduler.priority.TresAmount;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Priority recomputation (issue 4: 1,000,000 pending jobs under 1 s): every factor weighted (age, linear fair share,
 * job size, partition, QOS, TRES per CPU and GiB), 100 accounts × 10 users with usage, 4 partitions, 3 QOS, 1,000
 * nodes. {@code recompute} is one PriorityCalcPeriod's work: the fair-share table from the ledger, then every pending
 * job's priority. Run with scheduler-svc/bench/priority.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PriorityBenchmark {

    @Param({"1000000"})
    public int jobs;

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    private FairShare fairShare;
    private MultifactorPriority priority;
    private List<PriorityInput> pending;

    @Setup(Level.Trial)
    public void setUp() {
        StringBuilder conf = new StringBuilder("""
                PriorityWeightAge=60000
                PriorityMaxAge=30-0
                PriorityWeightFairshare=60000
                FairShareType=linear
                PriorityDecayHalfLife=1-0
                PriorityWeightJobSize=1000
                PriorityWeightPartition=1000
                PriorityWeightQOS=1
                PriorityFlags=NO_NORMAL_TRES,NO_NORMAL_QOS
                PriorityWeightTRES=CPU=100,Mem=20G
                TRESBillingWeights=CPU=1.0,Mem=0.25G
                NodeName=n[0001-1000] CPUs=64 RealMemory=256G
                PartitionName=p0 Nodes=n[0001-1000] PriorityJobFactor=1
                PartitionName=p1 Nodes=n[0001-0500] PriorityJobFactor=2
                PartitionName=p2 Nodes=n[0501-1000] PriorityJobFactor=3
                PartitionName=p3 Nodes=n[0001-0100] PriorityJobFactor=4
                QOS=buyin Priority=3000
                QOS=low Priority=10
                """);
        for (int a = 0; a < 100; a++) {
            conf.append("Account=acct").append(a).append(" Fairshare=").append(1 + a % 7).append(" Users=");
            for (int u = 0; u < 10; u++) {
                conf.append(u == 0 ? "" : ",").append("user").append(a * 10 + u);
            }
            conf.append('\n');
        }
        ClusterConfig config = ConfigParser.parse(Path.of("bench.conf"), conf.toString());
        fairShare = FairShare.of(config);
        priority = MultifactorPriority.of(config);
        SplittableRandom random = new SplittableRandom(42);
        for (int u = 0; u < 1000; u++) {
            if (random.nextInt(3) > 0) {
                fairShare.charge("acct" + u / 10, "user" + u, "normal",
                        TresAmount.of(1 + random.nextInt(64), 1024L * random.nextInt(256), 1), 3600 * 24,
                        NOW.minusSeconds(random.nextInt(86400 * 3)));
            }
        }
        String[] qos = {"normal", "buyin", "low"};
        pending = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            int u = random.nextInt(1000);
            pending.add(new PriorityInput(i + 1, "user" + u, "acct" + u / 10, "p" + random.nextInt(4),
                    qos[random.nextInt(3)], NOW.getEpochSecond() - random.nextInt(86400 * 40),
                    TresAmount.of(1 + random.nextInt(128), 1024L * (1 + random.nextInt(512)), 1 + random.nextInt(4)),
                    random.nextInt(10) == 0 ? random.nextInt(1000) : 0, 0));
        }
    }

    /** One calc period: fair-share table, then every pending job's priority. */
    @Benchmark
    public long[] recompute() {
        FairShareTable table = fairShare.table(NOW);
        return priority.priorities(pending, NOW, table);
    }

    /** The fair-share table alone (1,000 user associations, 100 accounts, root). */
    @Benchmark
    public FairShareTable fairShareTable() {
        return fairShare.table(NOW);
    }

    /** sshare -l: every association's row, with the usage that would halve or zero its factor. */
    @Benchmark
    public List<ShareRow> shares() {
        return fairShare.shares(NOW);
    }
}
