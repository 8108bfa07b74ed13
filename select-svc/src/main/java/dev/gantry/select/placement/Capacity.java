package dev.gantry.select.placement;

import dev.gantry.select.model.ReplicaView;

/**
 * The free resources one Plan call works on: a private copy of a {@link ReplicaView}'s usage that placements made
 * during the call are charged to. The view itself is never changed.
 *
 * <p>Not thread-safe; one per Plan call.
 */
final class Capacity {

    private final ReplicaView view;
    private final long[] freeCpus;
    private final long[] freeMemoryMb;
    private final int[] jobs;

    Capacity(ReplicaView view) {
        this.view = view;
        int n = view.nodeCount();
        this.freeCpus = new long[n];
        this.freeMemoryMb = new long[n];
        this.jobs = new int[n];
        for (int i = 0; i < n; i++) {
            freeCpus[i] = Math.max(0, view.node(i).cpus() - (long) view.usedCpus(i));
            freeMemoryMb[i] = Math.max(0, view.node(i).realMemoryMb() - view.usedMemoryMb(i));
            jobs[i] = view.jobsOn(i);
        }
    }

    ReplicaView view() {
        return view;
    }

    NodeCandidate candidate(int index) {
        return new NodeCandidate(index, view.node(index), freeCpus[index], freeMemoryMb[index], jobs[index]);
    }

    /** Charges a placement's share of one node. */
    void take(int index, int cpus, long memoryMb) {
        freeCpus[index] -= cpus;
        freeMemoryMb[index] -= memoryMb;
        jobs[index]++;
    }
}
