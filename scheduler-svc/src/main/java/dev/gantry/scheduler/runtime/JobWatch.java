package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.access.Redaction;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.model.JobRecord;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * WatchJobs: the matching jobs the caller may see now, then every change of one of them — whole for their owner,
 * operators and administrators, without script and environment for others ({@link Visibility}).
 */
public final class JobWatch {

    private static final int CAPACITY = 1 << 16;

    private record Watcher(JobQuery query, Requester who, StreamFeed<WatchJobsResponse> feed) {}

    private final Controller controller;
    private final Visibility visibility;
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

    JobWatch(Controller controller) {
        this.controller = controller;
        this.visibility = new Visibility(dev.gantry.scheduler.access.PrivateData.of(controller.state.config()));
        controller.state.onJobChange(this::changed);
    }

    /** Call on the WatchJobs call's gRPC thread (the feed's handlers must be set there). */
    public void watch(JobQuery query, Requester who, StreamObserver<WatchJobsResponse> observer) {
        Watcher[] self = new Watcher[1];
        StreamFeed<WatchJobsResponse> feed = new StreamFeed<>("watch-jobs", observer, CAPACITY, f -> watchers.remove(self[0]));
        self[0] = new Watcher(query, who, feed);
        controller.run(() -> {
            if (feed.isEnded()) {
                return;
            }
            JobAnswers answers = new JobAnswers(controller);
            for (JobRecord j : controller.state.jobs()) {
                if (query.matches(j) && visibility.seesJob(who, j.user())) {
                    feed.offer(response(answers.of(j), j, who));
                }
            }
            watchers.add(self[0]);
            feed.start();
        }).whenComplete((v, error) -> {
            if (error != null) {
                feed.end(io.grpc.Status.INTERNAL.withDescription("watch failed: " + error));
            }
        });
    }

    private WatchJobsResponse response(Job job, JobRecord j, Requester who) {
        Job shown = visibility.seesJobInFull(who, j.user()) ? job : Redaction.withoutPrivateParts(job);
        return WatchJobsResponse.newBuilder().setJob(shown).build();
    }

    /** Controller thread: a job changed. One message in full and one without private parts are made at most. */
    private void changed(JobRecord j) {
        if (watchers.isEmpty()) {
            return;
        }
        WatchJobsResponse full = null;
        WatchJobsResponse redacted = null;
        for (Watcher w : watchers) {
            if (!w.query.matches(j) || !visibility.seesJob(w.who, j.user())) {
                continue;
            }
            if (full == null) {
                full = WatchJobsResponse.newBuilder().setJob(new JobAnswers(controller).of(j)).build();
            }
            if (visibility.seesJobInFull(w.who, j.user())) {
                w.feed.offer(full);
            } else {
                if (redacted == null) {
                    redacted = WatchJobsResponse.newBuilder().setJob(Redaction.withoutPrivateParts(full.getJob())).build();
                }
                w.feed.offer(redacted);
            }
        }
    }
}
