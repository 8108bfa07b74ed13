package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * WatchJobs: the matching jobs the caller may see now ({@link Visibility}), then every change of one of them, in the
 * view asked (never with script or environment). Each watcher is a
 * {@link StreamFeed} of at most {@link #CAPACITY} entries, its bytes reserved from the watchers' shared
 * {@link FeedBudget}; the snapshot is one entry.
 */
public final class JobWatch {

    /** Entries a watcher may fall behind before it is ended (an entry: one change, or the first snapshot). */
    static final int CAPACITY = 16_384;

    private record Watcher(JobQuery query, Requester who, StreamFeed<WatchJobsResponse> feed) {}

    private final ClusterState state;
    private final Supplier<JobAnswers> answers;
    private final Executor onController;
    private final Visibility visibility;
    private final FeedBudget budget;
    private final java.util.function.Consumer<StreamFeed.Overflow> onOverflow;
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

    /**
     * @param state the jobs watched, read on the controller thread, which tells this watch of every change
     * @param answers jobs as the API answers them now (a new one for each snapshot and each change)
     * @param onController the controller thread, where a watcher's snapshot is taken
     * @param budget the bytes every watcher's backlog may hold together
     * @param onOverflow told each time a watcher is ended for falling behind or for lack of budget (a metric)
     */
    JobWatch(ClusterState state, Supplier<JobAnswers> answers, Executor onController, FeedBudget budget,
            java.util.function.Consumer<StreamFeed.Overflow> onOverflow) {
        this.state = state;
        this.answers = answers;
        this.onController = onController;
        this.visibility = new Visibility(dev.gantry.scheduler.access.PrivateData.of(state.config()));
        this.budget = budget;
        this.onOverflow = onOverflow;
        state.onJobChange(this::changed);
    }

    /** Call on the WatchJobs call's gRPC thread (the feed's handlers must be set there). */
    public void watch(JobQuery query, Requester who, StreamObserver<WatchJobsResponse> observer) {
        Watcher[] self = new Watcher[1];
        StreamFeed<WatchJobsResponse> feed = new StreamFeed<>("watch-jobs", observer, CAPACITY, budget,
                f -> watchers.remove(self[0]), onOverflow);
        self[0] = new Watcher(query, who, feed);
        CompletableFuture.runAsync(() -> {
            if (feed.isEnded()) {
                return;
            }
            JobAnswers now = answers.get();
            List<WatchJobsResponse> snapshot = new ArrayList<>();
            for (JobRecord j : state.jobs()) {
                if (query.matches(j) && visibility.seesJob(who, j.user())) {
                    snapshot.add(WatchJobsResponse.newBuilder().setJob(now.of(j, query.view())).build());
                }
            }
            feed.offerAll(snapshot);
            watchers.add(self[0]);
            feed.start();
        }, onController).whenComplete((v, error) -> {
            if (error != null) {
                feed.end(io.grpc.Status.INTERNAL.withDescription("watch failed: " + error));
            }
        });
    }

    /**
     * Ends every watcher with UNAVAILABLE (the controller stops; watchers re-subscribe to the next one). Open streams
     * would otherwise hold the gRPC server's shutdown for its whole await-termination.
     */
    public void close() {
        for (Watcher w : watchers) {
            w.feed().end(io.grpc.Status.UNAVAILABLE.withDescription("controller shutting down"));
        }
    }

    /** Open watchers (a gauge). */
    public int count() {
        return watchers.size();
    }

    /** The shared budget of the watchers' backlogs. */
    public FeedBudget budget() {
        return budget;
    }

    /** Controller thread: a job changed. One message per view watched is made at most. */
    private void changed(JobRecord j) {
        if (watchers.isEmpty()) {
            return;
        }
        java.util.EnumMap<dev.gantry.api.v1.JobView, WatchJobsResponse> made = new java.util.EnumMap<>(dev.gantry.api.v1.JobView.class);
        JobAnswers now = null;
        for (Watcher w : watchers) {
            if (!w.query.matches(j) || !visibility.seesJob(w.who, j.user())) {
                continue;
            }
            if (now == null) {
                now = answers.get();
            }
            JobAnswers at = now;
            w.feed.offer(made.computeIfAbsent(w.query.view(), v -> WatchJobsResponse.newBuilder().setJob(at.of(j, v)).build()));
        }
    }
}
