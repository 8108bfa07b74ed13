package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.Arrays;
import java.util.List;

/** Fixtures for the lifecycle rules: jobs in the states transitions start from. */
final class Jobs {

    private Jobs() {}

    /** Job {@code id} of alice, running since T0 on {@code nodes} (batch host first), 2 CPUs on each, limit 1 hour. */
    static JobRecord running(long id, String... nodes) {
        List<NodeShare> shares = Arrays.stream(nodes).map(n -> new NodeShare(n, 2, 512)).toList();
        return aJob(id).nodes(nodes.length).build().toBuilder().state(JobState.RUNNING, T0).allocation(shares)
                .startTime(T0).build();
    }

    /** The effects of {@code d} of type {@code type}, in order. */
    static <E extends Effect> List<E> effects(Decision d, Class<E> type) {
        return d.effects().stream().filter(type::isInstance).map(type::cast).toList();
    }
}
