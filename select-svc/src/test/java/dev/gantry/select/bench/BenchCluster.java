package dev.gantry.select.bench;

import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.Gres;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.NodeState;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.model.SelectSettings;
import dev.gantry.select.model.Topology;
import dev.gantry.select.placement.JobOptions;
import dev.gantry.select.placement.ResourceRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The benchmark cluster, seeded: {@code nodes} nodes of 2 sockets × 32 cores (64 CPUs), 256 GiB, cons_tres
 * CR_Core_Memory, one partition; about half the cores held by running jobs (1–8 nodes each, 8–64 cores per node,
 * 2 GiB per core, ending within 1–24 h); and {@code pending} jobs of 1–64 nodes (a power of two, uniformly), 1–64 tasks
 * per node, 1–4 GiB per CPU, time limits 10 min–24 h.
 */
public record BenchCluster(ReplicaView view, List<ResourceRequest> pending, Instant now) {

    /**
     * {@code view}'s nodes and partitions with, instead of its jobs, one running job per node holding all its CPUs and
     * no memory, every partition OverSubscribe={@code oversubscribe}: a job can start only by sharing.
     */
    public static ReplicaView everyCoreHeldOnce(ReplicaView view, String oversubscribe) {
        List<ClusterNode> nodes = new ArrayList<>(view.nodeCount());
        List<JobAllocation> allocations = new ArrayList<>(view.nodeCount());
        for (int i = 0; i < view.nodeCount(); i++) {
            ClusterNode node = view.node(i);
            nodes.add(node);
            allocations.add(new JobAllocation(i + 1, "batch", List.of(new NodeAllotment(node.name(), node.cpus(), 0)), false,
                    NOW.plusSeconds(3600)));
        }
        ClusterPartition batch = view.partition("batch").orElseThrow()
                .withOversubscribe(dev.gantry.select.fixture.Shares.oversubscribe(oversubscribe));
        return ReplicaView.of("bench-full", 1, view.settings(), nodes, List.of(batch), allocations, view.topology());
    }

    public static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);

    public static BenchCluster of(int nodes, int pending, long seed) {
        return of(nodes, pending, 0, seed);
    }

    /**
     * With {@code running} > 0: exactly that many running jobs of 1–2 nodes and 4–32 cores per node (2 GiB per
     * core, ending within 1–24 h), placed where they fit; 0 = the half-full cluster above.
     */
    public static BenchCluster of(int nodes, int pending, int running, long seed) {
        Random random = new Random(seed);
        List<ClusterNode> list = new ArrayList<>(nodes);
        List<String> names = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            String name = "n" + i;
            names.add(name);
            list.add(new ClusterNode(name, 64, 2, 32, 1, 262_144, 1, Set.of(i % 2 == 0 ? "ib" : "eth"), Gres.NONE,
                    NodeState.IDLE, false, false));
        }
        List<JobAllocation> allocations = new ArrayList<>();
        int[] used = new int[nodes];
        long id = 1;
        long usedCores = 0;
        while (running > 0 ? allocations.size() < running : usedCores < nodes * 64L / 2) {
            int width = running > 0 ? 1 + random.nextInt(2) : 1 + random.nextInt(8);
            int start = random.nextInt(nodes);
            int cores = running > 0 ? 4 * (1 + random.nextInt(8)) : 8 * (1 + random.nextInt(8));
            List<NodeAllotment> shares = new ArrayList<>();
            for (int k = 0; k < width; k++) {
                int n = (start + k) % nodes;
                if (used[n] + cores <= 64) {
                    shares.add(new NodeAllotment(names.get(n), cores, cores * 2048L));
                    used[n] += cores;
                    usedCores += cores;
                }
            }
            if (!shares.isEmpty()) {
                allocations.add(new JobAllocation(id++, "batch", shares, false, NOW.plusSeconds(3600L * (1 + random.nextInt(24)))));
            }
        }
        List<ResourceRequest> jobs = new ArrayList<>(pending);
        for (int j = 0; j < pending; j++) {
            int count = 1 << random.nextInt(7);
            int perNode = 1 + random.nextInt(64);
            JobOptions options = JobOptions.NONE.withNtasksPerNode(perNode).withMemPerCpu(1024L * (1 + random.nextInt(4)))
                    .withTimeLimitSeconds(600L * (1 + random.nextInt(144)));
            jobs.add(new ResourceRequest(1_000_000 + j, List.of("batch"), count, count, count * perNode, 1, 0, options));
        }
        ReplicaView view = ReplicaView.of("bench", 1, new SelectSettings(SelectMode.CONS_TRES, "CR_Core_Memory"), list,
                List.of(new ClusterPartition("batch", PartitionState.UP, names)), allocations, Topology.NONE);
        return new BenchCluster(view, jobs, NOW);
    }
}
