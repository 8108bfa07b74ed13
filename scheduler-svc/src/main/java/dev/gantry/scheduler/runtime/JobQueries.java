package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.api.Redaction;
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

    /** Jobs as the API shows them whole, filtered. */
    public CompletableFuture<List<Job>> listJobs(JobQuery query) {
        return CompletableFuture.supplyAsync(() -> {
            JobAnswers answers = answers();
            return state.jobs().stream().filter(query::matches).map(answers::of).toList();
        }, onController);
    }

    /**
     * Jobs as {@code who} may see them, filtered: with PrivateData=jobs only their own unless privileged, and without
     * script and environment where they are not the owner, an operator or an administrator ({@link Visibility}).
     */
    public CompletableFuture<List<Job>> listJobs(JobQuery query, Requester who, Visibility visibility) {
        return CompletableFuture.supplyAsync(() -> {
            JobAnswers answers = answers();
            List<Job> out = new ArrayList<>();
            for (JobRecord j : state.jobs()) {
                if (query.matches(j) && visibility.seesJob(who, j.user())) {
                    Job shown = answers.of(j);
                    out.add(visibility.seesJobInFull(who, j.user()) ? shown : Redaction.withoutPrivateParts(shown));
                }
            }
            return out;
        }, onController);
    }

    public CompletableFuture<Job> findJob(long id) {
        return CompletableFuture.supplyAsync(() -> {
            JobRecord j = state.job(id);
            return j == null ? null : answers().of(j);
        }, onController);
    }
}
