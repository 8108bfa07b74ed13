package dev.gantry.agent.process;

import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.api.v1.LaunchJobRequest;
import java.util.Optional;

/** A LaunchJob request as the launch order the supervisor carries out. Stateless. */
public final class LaunchRequests {
    private LaunchRequests() {}

    /** The request as a launch order; {@code array} unset means the job is not an array task. */
    public static LaunchOrder order(LaunchJobRequest r) {
        Optional<LaunchOrder.ArrayTask> array = r.hasArray()
                ? Optional.of(new LaunchOrder.ArrayTask(r.getArray().getArrayJobId(), r.getArray().getTaskId(),
                        r.getArray().getTaskCount(), r.getArray().getTaskMin(), r.getArray().getTaskMax(),
                        r.getArray().getTaskStep()))
                : Optional.empty();
        return new LaunchOrder(r.getJobId(), r.getJobName(), r.getScript(), r.getArgvList(), r.getWorkDir(),
                r.getStdoutPath(), r.getStderrPath(), r.getEnvironmentMap(), r.getPartition(), r.getNumTasks(),
                r.getCpusOnNode(), r.getMemoryMb(), r.getSubmitDir(), r.getSubmitHost(), r.getTimeLimitSeconds(),
                r.getCoreIdsList(), array, r.getAccount(), r.getQos(), r.getRestartCount(), r.getStartSuspended());
    }

}
