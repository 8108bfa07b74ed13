package dev.gantry.select.bench;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.SelectSettings;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.Replica;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.Ledger;
import dev.gantry.select.runtime.ReplicaInputs;
import java.lang.management.ManagementFactory;

/**
 * Heap held by select-svc's replica at benchmark scale, measured as the difference in used heap after full GCs
 * (no JOL): the replica built from a {@link BenchCluster}-shaped snapshot (10,000 nodes, its running jobs), then its
 * view and the base ledger a Plan copies. Run with a fixed heap: {@code java -Xms2g -Xmx2g … ReplicaFootprint}.
 */
public final class ReplicaFootprint {
    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        BenchCluster cluster = BenchCluster.of(nodes, 0, 42);
        ClusterSnapshot snapshot = snapshot(cluster.view());
        long before = used();
        Replica replica = ReplicaInputs.replica("bench", 1, snapshot);
        long afterReplica = used();
        ReplicaView view = replica.view();
        Ledger base = Ledger.base(view);
        long afterLedger = used();
        System.out.printf("nodes %d, running jobs %d%n", nodes, view.allocations().size());
        System.out.printf("replica (nodes, partitions, allocations, usage arrays): %.1f MiB%n", (afterReplica - before) / 1048576.0);
        System.out.printf("+ view and base ledger (per-core holders): %.1f MiB%n", (afterLedger - afterReplica) / 1048576.0);
        System.out.println(replica.revision() + base.unitCount(0) + snapshot.getNodesCount() > 0 ? "" : "?");
    }

    private static ClusterSnapshot snapshot(ReplicaView view) {
        ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder()
                .setSelect(SelectSettings.newBuilder().setSelectType("select/cons_tres").setSelectTypeParameters("CR_Core_Memory"));
        Partition.Builder p = Partition.newBuilder().setName("batch").setState(PartitionState.PARTITION_STATE_UP);
        for (int i = 0; i < view.nodeCount(); i++) {
            var n = view.node(i);
            b.addNodes(Node.newBuilder().setName(n.name()).setState(NodeState.NODE_STATE_IDLE).setCpus(n.cpus())
                    .setSockets(n.sockets()).setCoresPerSocket(n.coresPerSocket()).setThreadsPerCore(n.threadsPerCore())
                    .setRealMemoryMb(n.realMemoryMb()).setWeight(1).addAllFeatures(n.features()));
            p.addNodes(n.name());
        }
        b.addPartitions(p);
        for (JobAllocation a : view.allocations()) {
            Allocation.Builder ab = Allocation.newBuilder().setJobId(a.jobId()).setPartition(a.partition());
            for (NodeAllotment s : a.nodes()) {
                ab.addNodes(NodeAllocation.newBuilder().setNode(s.node()).setCpus(s.cpus()).setMemoryMb(s.memoryMb()));
            }
            b.addAllocations(ab);
        }
        return b.build();
    }

    private static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }
}
