package dev.gantry.cli.command;

import dev.gantry.api.v1.ListStepsRequest;
import dev.gantry.api.v1.Step;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.StepInfos;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.scontrol.StepRecord;
import dev.gantry.cli.squeue.StepReport;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;

/**
 * The step views of squeue ({@code -s [STEP_LIST]}) and scontrol ({@code show step [ID]}), over Steps.ListSteps.
 * A step list names steps as {@code JOBID.STEPID} ({@code 12.0}, {@code 12.batch}) or whole jobs ({@code 12}).
 */
final class StepListing {

    private StepListing() {}

    /** squeue -s: returns the exit status. */
    static int squeue(CliContext context, ControllerSession session, String stepList, boolean header) {
        List<Step> steps;
        try {
            steps = fetch(session, stepList);
        } catch (IllegalArgumentException e) {
            context.err().println("squeue: error: " + e.getMessage());
            return 1;
        } catch (StatusRuntimeException e) {
            context.err().println("slurm_get_job_steps error: " + ControllerFailure.describe(e));
            return 1;
        }
        StepReport.lines(StepInfos.steps(steps), context.clock().instant(), header).forEach(context.out()::println);
        return 0;
    }

    /** scontrol show step [ID]: returns the exit status. */
    static int scontrol(CliContext context, ControllerSession session, String id, boolean oneLiner) {
        List<Step> steps;
        try {
            steps = fetch(session, id);
        } catch (IllegalArgumentException e) {
            context.err().println("Invalid job step id: " + id);
            return 1;
        } catch (StatusRuntimeException e) {
            context.err().println("slurm_get_job_steps error: " + ControllerFailure.describe(e));
            return 1;
        }
        if (steps.isEmpty()) {
            if (id != null) {
                context.err().println("Job step " + id + " not found");
                return 1;
            }
            context.out().println("No job steps in the system");
            return 0;
        }
        StepInfos.steps(steps).forEach(s -> context.out().print(StepRecord.render(s, context.zone(), oneLiner)));
        return 0;
    }

    /** The steps a list names (all when null); throws IllegalArgumentException for a malformed id. */
    private static List<Step> fetch(ControllerSession session, String stepList) {
        List<long[]> jobs = new ArrayList<>();
        List<String> wanted = new ArrayList<>();
        if (stepList != null) {
            for (String part : stepList.split(",")) {
                String t = part.trim();
                int dot = t.indexOf('.');
                String job = dot < 0 ? t : t.substring(0, dot);
                try {
                    jobs.add(new long[] {Long.parseLong(job)});
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Invalid job step id: " + t);
                }
                wanted.add(t);
            }
        }
        ListStepsRequest.Builder request = ListStepsRequest.newBuilder();
        jobs.forEach(j -> request.addJobIds(j[0]));
        List<Step> all = session.steps().listSteps(request.build()).getStepsList();
        if (wanted.isEmpty()) {
            return all;
        }
        return all.stream().filter(s -> wanted.contains(Long.toString(s.getJobId()))
                || wanted.contains(s.getJobId() + "." + s.getStepId())).toList();
    }
}
