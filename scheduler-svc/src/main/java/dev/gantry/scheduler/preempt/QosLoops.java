package dev.gantry.scheduler.preempt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a loop in the QOS Preempt= graph. Slurm's database refuses a QOS that preempts itself or whose preemptees,
 * followed transitively, lead back to it (as_mysql_qos.c, _preemption_loop): with a loop, "may preempt" is no longer
 * an order and jobs could preempt each other in turn without end.
 */
final class QosLoops {
    private QosLoops() {}

    /** The first loop found (QOS in name order), as a path that starts and ends with the same QOS; empty if none. */
    static Optional<List<String>> find(Map<String, Set<String>> preempts) {
        Set<String> done = new TreeSet<>();
        for (String start : new TreeSet<>(preempts.keySet())) {
            Optional<List<String>> loop = visit(start, preempts, new ArrayList<>(), done);
            if (loop.isPresent()) {
                return loop;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> visit(String qos, Map<String, Set<String>> preempts, List<String> path,
            Set<String> done) {
        if (done.contains(qos)) {
            return Optional.empty();
        }
        int at = path.indexOf(qos);
        if (at >= 0) {
            List<String> loop = new ArrayList<>(path.subList(at, path.size()));
            loop.add(qos);
            return Optional.of(loop);
        }
        path.add(qos);
        for (String next : new TreeSet<>(preempts.getOrDefault(qos, Set.of()))) {
            Optional<List<String>> loop = visit(next, preempts, path, done);
            if (loop.isPresent()) {
                return loop;
            }
        }
        path.remove(path.size() - 1);
        done.add(qos);
        return Optional.empty();
    }
}
