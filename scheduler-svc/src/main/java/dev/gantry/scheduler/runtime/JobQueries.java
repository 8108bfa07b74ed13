package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** GetJob and ListJobs over the controller's state, answered on the controller thread ({@code onController}). */
public final class JobQueries {

    private final ClusterState state;
    private final AccountingCommands accounting;
    private final SchedEvals evals;
    private final InstantSource clock;
    private final Executor onController;

    JobQueries(ClusterState state, AccountingCommands accounting, SchedEvals evals, InstantSource clock,
            Executor onController) {
        this.state = state;
        this.accounting = accounting;
        this.evals = evals;
        this.clock = clock;
        this.onController = onController;
    }

    /** Jobs as the API answers them now (WatchJobs makes one for each snapshot and each change). */
    JobAnswers answers() {
        return new JobAnswers(accounting.preemptSettings(), evals, clock.instant());
    }

    /** Jobs as the API shows them in the query's view, filtered, every one (tests, and callers that are not clients). */
    public CompletableFuture<List<Job>> listJobs(JobQuery query) {
        return CompletableFuture.supplyAsync(() -> {
            JobAnswers answers = answers();
            return state.jobs().stream().filter(query::matches).map(j -> answers.of(j, query.view())).toList();
        }, onController);
    }

    /**
     * One page of ListJobs: the matching jobs {@code who} may see (with PrivateData=jobs only their own unless
     * privileged, {@link Visibility}) with ids above {@code afterId}, in id order, in the query's view (never with
     * script or environment), at most {@code size} of them and no more than {@code byteBudget} serialized bytes
     * (always at least one, so a page always advances).
     */
    public CompletableFuture<JobPage> listJobs(JobQuery query, long afterId, int size, int byteBudget, Requester who,
            Visibility visibility) {
        if (query.view() == dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE) {
            throw new IllegalArgumentException("a listing never carries scripts and environments");
        }
        return CompletableFuture.supplyAsync(() -> {
            JobAnswers answers = answers();
            List<Job> out = new ArrayList<>();
            long bytes = 0;
            long last = afterId;
            for (JobRecord j : candidates(query, afterId)) {
                if (!query.matches(j) || !visibility.seesJob(who, j.user())) {
                    last = j.id();
                    continue;
                }
                if (out.size() == size) {
                    return new JobPage(out, last, true);
                }
                Job shown = answers.of(j, query.view());
                bytes += shown.getSerializedSize();
                if (!out.isEmpty() && bytes > byteBudget) {
                    return new JobPage(out, last, true);
                }
                out.add(shown);
                last = j.id();
            }
            return new JobPage(out, last, false);
        }, onController);
    }

    /**
     * The jobs a page may hold, in id order, above {@code afterId}: the named ones alone when the query names only
     * ids; the named users' when it names users and no ids; from the smallest id or array id named (an array's tasks
     * have ids from the array's own up) otherwise.
     */
    private Iterable<JobRecord> candidates(JobQuery query, long afterId) {
        if (!query.ids().isEmpty() && query.arrayIds().isEmpty()) {
            return query.ids().stream().filter(id -> id > afterId).sorted().map(state::job)
                    .filter(java.util.Objects::nonNull).toList();
        }
        if (!query.users().isEmpty() && query.ids().isEmpty() && query.arrayIds().isEmpty()) {
            return state.jobsOf(query.users(), afterId); // squeue -u: those users' jobs only
        }
        long from = afterId;
        if (!query.arrayIds().isEmpty()) {
            long least = java.util.stream.Stream.concat(query.ids().stream(), query.arrayIds().stream())
                    .mapToLong(Long::longValue).min().orElse(0);
            from = Math.max(from, least - 1);
        }
        return state.jobsAfter(from);
    }

    /**
     * @param lastId the last job id this page looked at (the next page starts after it)
     * @param more whether matching jobs may follow
     */
    public record JobPage(List<Job> jobs, long lastId, boolean more) {
        public JobPage {
            jobs = List.copyOf(jobs);
        }
    }

    /** The job whole (script and environment included), or null. */
    public CompletableFuture<Job> findJob(long id) {
        return findJob(id, dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE);
    }

    /** The job in {@code view} (UNSPECIFIED: FULL), or null. */
    public CompletableFuture<Job> findJob(long id, dev.gantry.api.v1.JobView view) {
        dev.gantry.api.v1.JobView shown = view == dev.gantry.api.v1.JobView.JOB_VIEW_UNSPECIFIED
                ? dev.gantry.api.v1.JobView.JOB_VIEW_FULL : view;
        return CompletableFuture.supplyAsync(() -> {
            JobRecord j = state.job(id);
            return j == null ? null : answers().of(j, shown);
        }, onController);
    }
}
