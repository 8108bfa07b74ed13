package dev.gantry.select.placement;

import dev.gantry.select.model.NodeAllotment;
import java.util.BitSet;
import java.util.Optional;

/**
 * select/linear's job mate (Slurm 22.05, src/plugins/select/linear/select_linear.c, {@code _find_job_mate}, called by
 * {@code _run_now} once a job must share nodes): before choosing among the shareable nodes, look for a running job of
 * exactly as many nodes, all of them shareable at this level, and take exactly that job's nodes. Two jobs that
 * time-slice then overlap wholly, and the other nodes stay to others (https://slurm.schedmd.com/gang_scheduling.html,
 * "More examples": job 11, -N3, on n[12-14], the nodes of job 9). Checked on Slurm 22.05: -N3, -N2, -N2 on n[12-16]
 * give n[12-14], n[15-16], n[15-16] — the third job shares the whole of the second rather than the first nodes in order.
 *
 * <p>A mate is running (not suspended), of the job's partition (Gantry shares units only within one), on exactly
 * {@code count} nodes, all in {@code pool}, holding all the job's required nodes and at least as many CPUs as the job
 * needs; the first by job id (Slurm's job list order) wins. Slurm also requires both jobs to agree on --contiguous; the
 * replica does not say whether a running job asked it, so a --contiguous job looks for no mate.
 *
 * <p>Pure; thread-safe.
 */
final class JobMate {
    private JobMate() {}

    /** The mate's nodes (required ones first, then node order), or empty. */
    static Optional<int[]> find(Ledger ledger, JobShape shape, BitSet pool, int[] required, int count) {
        if (shape.request().options().contiguous()) {
            return Optional.empty();
        }
        long cpusNeeded = (long) shape.request().numTasks() * shape.cpusPerTask();
        for (long id : ledger.running(shape.partition().name(), count)) {
            BitSet nodes = new BitSet();
            long cpus = 0;
            for (NodeAllotment share : ledger.sharesOf(id)) {
                int at = ledger.view().indexOf(share.node());
                if (at < 0 || !pool.get(at)) {
                    nodes = null;
                    break;
                }
                nodes.set(at);
                cpus += share.cpus();
            }
            if (nodes == null || cpus < cpusNeeded || !holdsAll(nodes, required)) {
                continue;
            }
            int[] chosen = new int[count];
            int n = 0;
            for (int r : required) {
                chosen[n++] = r;
                nodes.clear(r);
            }
            for (int at = nodes.nextSetBit(0); at >= 0; at = nodes.nextSetBit(at + 1)) {
                chosen[n++] = at;
            }
            return Optional.of(chosen);
        }
        return Optional.empty();
    }

    private static boolean holdsAll(BitSet nodes, int[] required) {
        for (int r : required) {
            if (!nodes.get(r)) {
                return false;
            }
        }
        return true;
    }
}
