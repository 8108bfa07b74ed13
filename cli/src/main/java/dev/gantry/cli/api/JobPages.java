package dev.gantry.cli.api;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * ListJobs page by page: the controller answers at most a page (1000 jobs, 2 MiB) per call; these ask for the next
 * one until the answer carries no next_page_token.
 */
public final class JobPages {
    private JobPages() {}

    /** The page size the commands ask for: the server's largest, so a big queue takes few round trips. */
    public static final int PAGE_SIZE = 10_000;

    /** Every matching job, in id order. */
    public static List<Job> all(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest request) {
        List<Job> jobs = new ArrayList<>();
        each(stub, request, page -> jobs.addAll(page));
        return jobs;
    }

    /** Hands each page's jobs to {@code page}, in id order, as they arrive. */
    public static void each(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest request, Consumer<List<Job>> page) {
        ListJobsRequest.Builder next = request.toBuilder();
        if (next.getPageSize() == 0) {
            next.setPageSize(PAGE_SIZE);
        }
        while (true) {
            ListJobsResponse answer = stub.listJobs(next.build());
            page.accept(answer.getJobsList());
            if (answer.getNextPageToken().isEmpty()) {
                return;
            }
            next.setPageToken(answer.getNextPageToken());
        }
    }

    /** Whether any job matches (one job asked for). */
    public static boolean any(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest request) {
        ListJobsRequest.Builder next = request.toBuilder().setPageSize(1)
                .setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY);
        while (true) {
            ListJobsResponse answer = stub.listJobs(next.build());
            if (answer.getJobsCount() > 0) {
                return true;
            }
            if (answer.getNextPageToken().isEmpty()) {
                return false;
            }
            next.setPageToken(answer.getNextPageToken());
        }
    }
}
