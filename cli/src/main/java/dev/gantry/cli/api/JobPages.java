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
     * Hands each page's jobs to {@code page}, in id order, as they arrive: on one StreamJobs stream, the controller
     * making the next page while this command reads the last (pages parsed on the transport's thread, handed to
     * {@code page} on this one; two asked for at a time). A controller without StreamJobs is read with ListJobs, page by
     * page.
     *
     * @throws StatusRuntimeException as a blocking call would
     */
    public static void each(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest request, Consumer<List<Job>> page) {
        ListJobsRequest.Builder first = request.toBuilder();
        if (first.getPageSize() == 0) {
            first.setPageSize(PAGE_SIZE);
        }
        ControllerGrpc.ControllerStub async = ControllerGrpc.newStub(stub.getChannel());
        if (stub.getCallOptions().getDeadline() != null) {
            async = async.withDeadline(stub.getCallOptions().getDeadline());
        }
        // unbounded, yet never more than two pages: each is asked for (gRPC flow control) only once one is taken; a
        // callback never blocks, whichever thread runs it
        java.util.concurrent.BlockingQueue<Object> pages = new java.util.concurrent.LinkedBlockingQueue<>();
        Object end = new Object();
        @SuppressWarnings("unchecked")
        io.grpc.stub.ClientCallStreamObserver<ListJobsRequest>[] call = new io.grpc.stub.ClientCallStreamObserver[1];
        async.streamJobs(first.build(), new io.grpc.stub.ClientResponseObserver<ListJobsRequest, ListJobsResponse>() {
            @Override
            public void beforeStart(io.grpc.stub.ClientCallStreamObserver<ListJobsRequest> requestStream) {
                call[0] = requestStream;
                requestStream.disableAutoRequestWithInitial(2);
            }

            @Override
            public void onNext(ListJobsResponse value) {
                put(value);
            }

            @Override
            public void onError(Throwable t) {
                put(t);
            }

            @Override
            public void onCompleted() {
                put(end);
            }

            private void put(Object o) {
                pages.add(o);
            }
        });
        boolean any = false;
        boolean ended = false;
        try {
            while (true) {
                Object next = take(pages);
                if (next == end) {
                    ended = true;
                    return;
                }
                if (next instanceof Throwable t) {
                    ended = true;
                    Status status = Status.fromThrowable(t);
                    if (status.getCode() == Status.Code.UNIMPLEMENTED && !any) {
                        paged(stub, first, page); // an older controller: page by page
                        return;
                    }
                    throw status.asRuntimeException(Status.trailersFromThrowable(t));
                }
                any = true;
                call[0].request(1);
                page.accept(((ListJobsResponse) next).getJobsList());
            }
        } finally {
            if (!ended) { // the reader stopped early (an exception): end the stream
                call[0].cancel("the listing was abandoned", null);
            }
        }
    }

    private static Object take(java.util.concurrent.BlockingQueue<Object> pages) {
        try {
            return pages.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
        }
    }

    /** ListJobs page by page, the next asked for before this one is handed over. */
    private static void paged(ControllerGrpc.ControllerBlockingStub stub, ListJobsRequest.Builder next,
            Consumer<List<Job>> page) {
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
