package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.api.Redaction;
import dev.gantry.scheduler.model.JobRecord;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * WatchJobs: the matching jobs the caller may see now, then every change of one of them — whole for their owner,
 * operators and administrators, without script and environment for others ({@link Visibility}). Each watcher is a
 * {@link StreamFeed} of at most {@link #CAPACITY} entries, its bytes reserved from the watchers' shared
 * {@link FeedBudget}; the snapshot is one entry.
 */
public final class JobWatch {

    /** Entries a watcher may fall behind before it is ended (an entry: one change, or the first snapshot). */
    static final int CAPACITY = 16_384;

    private record Watcher(JobQuery query, Requester who, StreamFeed<WatchJobsResponse> feed) {}

    private final Controller controller;
    private final Visibility visibility;
    private final FeedBudget budget;
    private final java.util.function.Consumer<StreamFeed.Overflow> onOverflow;
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

    /** Watchers with a quarter of the heap for their backlogs, no metrics (tests). */
    JobWatch(Controller controller) {
        this(controller, FeedBudget.ofMegabytes(0), o -> { });
    }

    /**
     * @param budget the bytes every watcher's backlog may hold together
     * @param onOverflow told each time a watcher is ended for falling behind or for lack of budget (a metric)
     */
    public JobWatch(Controller controller, FeedBudget budget, java.util.function.Consumer<StreamFeed.Overflow> onOverflow) {
        this.controller = controller;
        this.visibility = new Visibility(dev.gantry.scheduler.access.PrivateData.of(controller.state.config()));
        this.budget = budget;
        this.onOverflow = onOverflow;
        controller.state.onJobChange(this::changed);
    }

    /** Call on the WatchJobs call's gRPC thread (the feed's handlers must be set there). */
    public void watch(JobQuery query, Requester who, StreamObserver<WatchJobsResponse> observer) {
        Watcher[] self = new Watcher[1];
        StreamFeed<WatchJobsResponse> feed = new StreamFeed<>("watch-jobs", observer, CAPACITY, budget,
                f -> watchers.remove(self[0]), onOverflow);
        self[0] = new Watcher(query, who, feed);
        controller.run(() -> {
            if (feed.isEnded()) {
                return;
            }
            JobAnswers answers = new JobAnswers(controller);
            List<WatchJobsResponse> snapshot = new ArrayList<>();
            for (JobRecord j : controller.state.jobs()) {
                if (query.matches(j) && visibility.seesJob(who, j.user())) {
                    snapshot.add(response(answers.of(j), j, who));
                }
            }
            feed.offerAll(snapshot);
            watchers.add(self[0]);
            feed.start();
        }).whenComplete((v, error) -> {
            if (error != null) {
                feed.end(io.grpc.Status.INTERNAL.withDescription("watch failed: " + error));
            }
        });
    }

    /** Open watchers (a gauge). */
    public int count() {
        return watchers.size();
    }

    /** The shared budget of the watchers' backlogs. */
    public FeedBudget budget() {
        return budget;
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
