package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.model.JobRecord;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** WatchJobs: the matching jobs now, then every change of a matching job. */
public final class JobWatch {

    private record Watcher(JobQuery query, StreamFeed<WatchJobsResponse> feed) {}

    private static final int CAPACITY = 1 << 16;
    private final Controller controller;
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

    JobWatch(Controller controller) {
        this.controller = controller;
        controller.state.onJobChange(this::changed);
    }

    /** Call on the WatchJobs call's gRPC thread (the feed's cancel handler must be set there). */
    public void watch(JobQuery query, StreamObserver<WatchJobsResponse> observer) {
        Watcher[] self = new Watcher[1];
        StreamFeed<WatchJobsResponse> feed = new StreamFeed<>("watch-jobs", observer, CAPACITY, f -> watchers.remove(self[0]));
        self[0] = new Watcher(query, feed);
        controller.run(() -> {
            if (feed.isEnded()) {
                return;
            }
            JobAnswers answers = new JobAnswers(controller);
            for (JobRecord j : controller.state.jobs()) {
                if (query.matches(j)) {
                    feed.offer(WatchJobsResponse.newBuilder().setJob(answers.of(j)).build());
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

    /** Controller thread: a job changed. */
    private void changed(JobRecord j) {
        if (watchers.isEmpty()) {
            return;
        }
        WatchJobsResponse message = null;
        for (Watcher w : watchers) {
            if (w.query.matches(j)) {
                if (message == null) {
                    message = WatchJobsResponse.newBuilder().setJob(new JobAnswers(controller).of(j)).build();
                }
                w.feed.offer(message);
            }
        }
    }
}
