package dev.gantry.cli.command;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ReleaseJobRequest;
import dev.gantry.api.v1.RequeueJobRequest;
import dev.gantry.api.v1.ResumeJobsRequest;
import dev.gantry.api.v1.SuspendJobsRequest;
import dev.gantry.api.v1.TopJobRequest;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.api.JobPages;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.scontrol.JobIdList;
import dev.gantry.cli.scontrol.JobUpdate;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * scontrol's job controls (https://slurm.schedmd.com/scontrol.html): hold, uhold, release, requeue, requeuehold,
 * top, update, and suspend and resume (operators and administrators only). A job list may name array tasks (123_4) or a whole array (123). Each refused job prints
 * "MESSAGE for job ID" as scontrol does, and makes the exit status 1; the others are still changed.
 */
final class ScontrolJobControls {

    private final CliContext context;
    private final ControllerSession session;

    ScontrolJobControls(CliContext context, ControllerSession session) {
        this.context = context;
        this.session = session;
    }

    /** Whether {@code keyword} is one of these controls (Slurm's abbreviations). */
    static boolean handles(String keyword) {
        return control(keyword) != null;
    }

    private static String control(String keyword) {
        String k = keyword.toLowerCase(Locale.ROOT);
        if (k.equals("uhold") || k.equals("holdu")) {
            return "uhold";
        }
        if (k.length() >= 8 && "requeuehold".startsWith(k)) {
            return "requeuehold";
        }
        for (String[] c : new String[][] {{"hold", "2"}, {"release", "3"}, {"requeue", "3"}, {"top", "3"},
            {"update", "1"}, {"suspend", "2"}, {"resume", "3"}}) {
            if (k.length() >= Integer.parseInt(c[1]) && c[0].startsWith(k)) {
                return c[0];
            }
        }
        return null;
    }

    /** Runs the control named by {@code words.get(0)} on the rest; returns the exit status. */
    int run(List<String> words) {
        String control = control(words.get(0));
        List<String> args = words.subList(1, words.size());
        if (args.isEmpty()) {
            context.err().println("too few arguments for keyword:" + words.get(0));
            return 1;
        }
        try {
            if (control.equals("update")) {
                return update(args);
            }
            String user = context.account().userName();
            List<JobIdList.Target> targets = targets(String.join(",", args));
            if (targets == null) {
                return 1;
            }
            List<Long> ids = targets.stream().map(JobIdList.Target::jobId).toList();
            List<JobResult> results = switch (control) {
                case "hold", "uhold" -> session.stub().holdJob(HoldJobRequest.newBuilder().addAllJobIds(ids)
                        .setUser(user).setUserHold(control.equals("uhold")).build()).getResultsList();
                case "release" -> session.stub().releaseJob(ReleaseJobRequest.newBuilder().addAllJobIds(ids)
                        .setUser(user).build()).getResultsList();
                case "requeue", "requeuehold" -> session.stub().requeueJob(RequeueJobRequest.newBuilder()
                        .addAllJobIds(ids).setUser(user).setHold(control.equals("requeuehold")).build()).getResultsList();
                case "top" -> session.stub().topJob(TopJobRequest.newBuilder().addAllJobIds(ids).setUser(user).build())
                        .getResultsList();
                case "suspend" -> session.stub().suspendJobs(SuspendJobsRequest.newBuilder().addAllJobIds(ids)
                        .setUser(user).build()).getResultsList();
                case "resume" -> session.stub().resumeJobs(ResumeJobsRequest.newBuilder().addAllJobIds(ids)
                        .setUser(user).build()).getResultsList();
                default -> throw new IllegalStateException(control);
            };
            return report(results, targets);
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.PERMISSION_DENIED
                    && (control.equals("suspend") || control.equals("resume"))) {
                // only operators and administrators suspend and resume: Slurm's error for the whole command
                context.err().println("slurm_" + control + " error: Access/permission denied");
                return 1;
            }
            context.err().println("slurm_update error: " + ControllerFailure.describe(e));
            return 1;
        }
    }

    /**
     * The jobs a list names, looking up arrays when needed; null (after printing why) when the list is malformed
     * or names no job the controller knows.
     */
    private List<JobIdList.Target> targets(String list) {
        JobIdList ids;
        try {
            ids = JobIdList.parse(list);
        } catch (IllegalArgumentException e) {
            context.err().println("Invalid job id specified for job " + e.getMessage());
            return null;
        }
        // the named jobs and every job of the arrays among them (an array's id names its tasks), not the whole queue
        List<Job> known = JobPages.all(session.stub(), ListJobsRequest.newBuilder().addAllJobIds(ids.baseIds())
                .addAllArrayJobIds(ids.baseIds()).setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY).build());
        List<String> unknown = new ArrayList<>();
        List<JobIdList.Target> targets = ids.resolve(JobInfos.jobs(known), unknown);
        unknown.forEach(u -> context.err().println("Invalid job id specified for job " + u));
        if (targets.isEmpty()) {
            return null;
        }
        return unknown.isEmpty() ? targets : withFailure(targets);
    }

    private boolean partialFailure;

    private List<JobIdList.Target> withFailure(List<JobIdList.Target> targets) {
        partialFailure = true;
        return targets;
    }

    private int report(List<JobResult> results, List<JobIdList.Target> targets) {
        Map<Long, String> names = new HashMap<>();
        targets.forEach(t -> names.put(t.jobId(), t.display()));
        int status = partialFailure ? 1 : 0;
        for (JobResult r : results) {
            if (!r.getOk()) {
                context.err().println(r.getError() + " for job " + names.getOrDefault(r.getJobId(),
                        Long.toString(r.getJobId())));
                status = 1;
            }
        }
        return status;
    }

    private int update(List<String> args) {
        JobUpdate update;
        try {
            update = JobUpdate.parse(args);
        } catch (JobUpdate.Refused e) {
            e.lines().forEach(context.err()::println);
            return 1;
        }
        List<JobIdList.Target> targets = targets(update.jobIds());
        if (targets == null) {
            return 1;
        }
        UpdateJobRequest.Builder request = UpdateJobRequest.newBuilder().setUser(context.account().userName());
        if (update.timeLimit() != null) {
            long current = update.timeSign() == 0 ? 0 : session.stub()
                    .getJob(GetJobRequest.newBuilder().setJobId(targets.get(0).jobId()).build()).getJob()
                    .getTimeLimitSeconds();
            try {
                request.setTimeLimitSeconds(update.timeLimitFrom(current));
            } catch (JobUpdate.Refused e) {
                e.lines().forEach(context.err()::println);
                return 1;
            }
        }
        // each field the update names, and only those
        Optional.ofNullable(update.partitions()).ifPresent(request::addAllPartitions);
        Optional.ofNullable(update.minNodes()).ifPresent(request::setMinNodes);
        Optional.ofNullable(update.maxNodes()).ifPresent(request::setMaxNodes);
        Optional.ofNullable(update.priority()).ifPresent(request::setPriority);
        Optional.ofNullable(update.nice()).ifPresent(request::setNice);
        Optional.ofNullable(update.qos()).ifPresent(request::setQos);
        Optional.ofNullable(update.account()).ifPresent(request::setAccount);
        Optional.ofNullable(update.dependency()).ifPresent(request::setDependency);
        request.addAllJobIds(targets.stream().map(JobIdList.Target::jobId).toList());
        return report(session.stub().updateJob(request.build()).getResultsList(), targets);
    }
}
