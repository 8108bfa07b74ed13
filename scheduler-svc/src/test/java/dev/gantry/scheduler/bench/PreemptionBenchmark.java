package dev.gantry.scheduler.bench;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import dev.gantry.scheduler.preempt.CandidateList;
import dev.gantry.scheduler.preempt.NodeMemory;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.preempt.PreemptionPlan;
import dev.gantry.scheduler.preempt.PreemptionPlanner;
import dev.gantry.scheduler.preempt.VictimPool;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Preemption's decision core (issue 5): {@code pool} sorts every running job in victim order (once per cycle);
 * {@code candidates} is one pending job's preemptable list filtered from it (partition_prio, four tiers,
 * PreemptExemptTime and PreemptMinActiveTime set);
 * {@code plan} decides 32 victims' modes with memory checks on their nodes (SUSPEND victims, a quarter escalated).
 * 1,000 nodes of 64 CPUs and 256 GiB. Run with scheduler-svc/bench/preempt.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PreemptionBenchmark {

    @Param({"10000", "100000"})
    public int running;

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private PreemptionPlanner planner;
    private List<JobRecord> jobs;
    private VictimPool pool;
    private JobRecord preemptor;
    private List<Long> victims;
    private List<NodeShare> placement;
    private Map<Long, JobRecord> byId;
    private Map<String, NodeMemory> memory;

    @Setup
    public void setup() {
        PreemptSettings settings = PreemptSettings.of(ConfigParser.parse(Path.of("bench.conf"), """
                NodeName=n[0000-0999] CPUs=64 RealMemory=262144
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                PreemptExemptTime=10
                PreemptMinActiveTime=60
                PartitionName=scavenger Nodes=n[0000-0999] PriorityTier=1 PreemptMode=requeue
                PartitionName=low Nodes=n[0000-0999] PriorityTier=10 PreemptMode=suspend
                PartitionName=normal Nodes=n[0000-0999] PriorityTier=20 Default=YES
                PartitionName=urgent Nodes=n[0000-0999] PriorityTier=30 PreemptMode=off
                """));
        planner = new PreemptionPlanner(settings);
        SplittableRandom r = new SplittableRandom(42);
        List<String> partitions = List.of("scavenger", "low", "normal", "urgent");
        jobs = new ArrayList<>();
        byId = new HashMap<>();
        Map<String, Long> held = new HashMap<>();
        for (long id = 1; id <= running; id++) {
            List<NodeShare> shares = new ArrayList<>();
            int nodes = 1 + r.nextInt(4);
            for (int n = 0; n < nodes; n++) {
                String node = String.format("n%04d", r.nextInt(1000));
                long mem = 1024L * (1 + r.nextInt(16));
                shares.add(new NodeShare(node, 1 + r.nextInt(8), mem));
                held.merge(node, mem, Long::sum);
            }
            JobRecord j = job(id, partitions.get(r.nextInt(4)), shares, NOW.minusSeconds(r.nextInt(3600)),
                    JobState.RUNNING);
            jobs.add(j);
            byId.put(id, j);
        }
        preemptor = job(running + 1, "urgent", List.of(), null, JobState.PENDING);
        pool = planner.pool(jobs);
        CandidateList c = planner.candidates(preemptor, "urgent", pool, NOW);
        victims = c.order().subList(0, Math.min(32, c.order().size()));
        placement = new ArrayList<>();
        memory = new HashMap<>();
        for (long v : victims) {
            for (NodeShare s : byId.get(v).allocation()) {
                placement.add(new NodeShare(s.node(), 1, 4096));
                memory.put(s.node(), new NodeMemory(s.node(), 262144, held.get(s.node())));
            }
        }
    }

    /** Once per cycle: the jobs holding resources, sorted in victim order. */
    @Benchmark
    public VictimPool pool() {
        return planner.pool(jobs);
    }

    /** Per preemptor: the candidates, filtered from the cycle's pool. */
    @Benchmark
    public CandidateList candidates() {
        return planner.candidates(preemptor, "urgent", pool, NOW);
    }

    @Benchmark
    public PreemptionPlan plan() {
        return planner.plan(preemptor, "urgent", placement, victims, byId::get, memory, NOW);
    }

    private static JobRecord job(long id, String partition, List<NodeShare> shares, Instant start, JobState state) {
        return new JobRecord(id, JobRequest.EMPTY, "j" + id, "u" + (id % 100), 1000, 1000,
                List.of(partition), new ResourceAsk(1, 4, 1, 1, 0), 3600, state, false, PendingReason.NONE, partition,
                shares, NOW.minusSeconds(7200), start, null, start, 0, 0, 100, JobControls.NONE, null, 0);
    }
}
