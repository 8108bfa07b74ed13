package dev.gantry.select.placement;

import dev.gantry.placement.GresRequest;
import dev.gantry.placement.NodeDemand;
import dev.gantry.placement.Owner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Shapes known to fail, so a queue of similar jobs does not repeat a search that cannot succeed. Within one Plan the
 * ledger and the profile only lose free resources (starts and reservations take, nothing gives back), so a search
 * that failed for (nodes, CPUs and memory per node, duration) also fails for any job of the same {@link Kind} that
 * needs at least as much of each. Kept per kind as the minimal failed shapes (a Pareto front).
 *
 * <p>Only for jobs whose eligible nodes the kind fully describes: no {@code --nodelist}, no {@code --exclude}. Once a
 * user-exclusive job is involved (the job's or one on the nodes), which nodes a job may use depends on its user, and the
 * kind includes the job's {@link Owner}.
 * Not thread-safe; one per Plan.
 */
final class ShapeMemo {

    /**
     * What makes two jobs' searches comparable: the same partition, constraint, sharing, memory per CPU (memory charged
     * per CPU grows with whole-core rounding, so it is monotone in CPUs only at one rate) and GRES request (and owner,
     * when owners matter; null otherwise).
     */
    private record Kind(String partition, Constraint constraint, boolean wholeNode, int maxShare, long memPerCpuMb,
                        List<GresRequest> gres, Owner owner) {}

    private final Map<Kind, List<long[]>> fronts = new HashMap<>();
    private final BooleanSupplier ownersMatter;

    /** @param ownersMatter whether some job on the nodes is user-exclusive (then every kind names its owner) */
    ShapeMemo(BooleanSupplier ownersMatter) {
        this.ownersMatter = ownersMatter;
    }

    /** Whether {@code shape} with {@code count} nodes is known to fail; false when the memo does not apply. */
    boolean failed(JobShape shape, int count, NodeDemand demand, long duration) {
        if (!applies(shape)) {
            return false;
        }
        List<long[]> front = fronts.get(kind(shape, demand));
        if (front == null) {
            return false;
        }
        for (int i = 0; i < front.size(); i++) {
            long[] f = front.get(i);
            if (f[0] <= count && f[1] <= demand.cpus() && f[2] <= demand.memoryMb() && f[3] <= duration) {
                return true;
            }
        }
        return false;
    }

    /** Records that {@code shape} with {@code count} nodes failed (a proven failure only: not a search given up). */
    void fail(JobShape shape, int count, NodeDemand demand, long duration) {
        if (!applies(shape)) {
            return;
        }
        List<long[]> front = fronts.computeIfAbsent(kind(shape, demand), k -> new ArrayList<>());
        long[] failed = {count, demand.cpus(), demand.memoryMb(), duration};
        front.removeIf(f -> failed[0] <= f[0] && failed[1] <= f[1] && failed[2] <= f[2] && failed[3] <= f[3]);
        front.add(failed);
    }

    private static boolean applies(JobShape shape) {
        return shape.required().isEmpty() && shape.request().options().exclude().isEmpty();
    }

    private Kind kind(JobShape shape, NodeDemand demand) {
        Owner owner = demand.owner().exclusiveUser() || ownersMatter.getAsBoolean() ? demand.owner() : null;
        return new Kind(shape.partition().name(), shape.request().options().constraint(), demand.wholeNode(),
                demand.maxShare(), demand.memPerCpuMb(), demand.gres(), owner);
    }
}
