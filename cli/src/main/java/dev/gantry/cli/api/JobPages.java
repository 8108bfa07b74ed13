package dev.gantry.cli.api;

import com.google.common.util.concurrent.ListenableFuture;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
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

    /**
     * Hands each page's jobs to {@code page}, in id order, as they arrive. The next page is asked for before this one
     * is handed over, so the controller builds it while this command reads the last one.
     *
     * @throws StatusRuntimeException as a blocking call would
     */
    public static void each(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest request, Consumer<List<Job>> page) {
        ListJobsRequest.Builder next = request.toBuilder();
        if (next.getPageSize() == 0) {
            next.setPageSize(PAGE_SIZE);
        }
        ControllerGrpc.ControllerFutureStub async = ControllerGrpc.newFutureStub(stub.getChannel());
        if (stub.getCallOptions().getDeadline() != null) {
            async = async.withDeadline(stub.getCallOptions().getDeadline());
        }
        ListenableFuture<ListJobsResponse> pending = async.listJobs(next.build());
        while (pending != null) {
            ListJobsResponse answer = await(pending);
            pending = null;
            if (!answer.getNextPageToken().isEmpty()) {
                pending = async.listJobs(next.setPageToken(answer.getNextPageToken()).build());
            }
            page.accept(answer.getJobsList());
        }
    }

    private static ListJobsResponse await(ListenableFuture<ListJobsResponse> pending) {
        try {
            return pending.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StatusRuntimeException s) {
                throw s;
            }
            throw Status.fromThrowable(e.getCause()).asRuntimeException();
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
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
