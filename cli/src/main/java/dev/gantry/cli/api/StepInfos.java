package dev.gantry.cli.api;

import dev.gantry.api.v1.Step;
import dev.gantry.cli.model.StepInfo;
import java.util.Collection;
import java.util.List;

/** Maps the controller's job steps to {@link StepInfo}. */
public final class StepInfos {

    private StepInfos() {}

    /** The steps, in the same order. */
    public static List<StepInfo> steps(Collection<Step> steps) {
        return steps.stream().map(StepInfos::step).toList();
    }

    public static StepInfo step(Step s) {
        return new StepInfo(s.getJobId(), s.getStepId(), s.getName(), s.getPartition(), s.getUser(),
                ProtoTime.instant(s.getStartTime()), s.getNodesList(), s.getNumTasks(), s.getNumCpus(), s.getState(),
                s.hasTimeUsedSeconds() ? s.getTimeUsedSeconds() : null);
    }
}
