package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobView;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.common.auth.Identity;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ListJobs is paged (AIP-158's page_size / page_token / next_page_token) and filtered on the server, in the view
 * asked: a queue of any size, or jobs of any accepted size, is read in answers a client's default 4 MiB inbound limit
 * takes.
 */
class ListJobsPagingApiTest {

    static final Identity ALICE = ControllerApiRig.ALICE;
    static final Identity BOB = new Identity("bob", 1001, 1001, List.of(1001L), "local");

    ControllerApiRig rig;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                MaxArraySize=2000
                NodeName=n1 CPUs=2 RealMemory=1024
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                PartitionName=other Nodes=n1 MaxTime=60 State=UP
                Account=science Users=alice,bob
                """);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    private long submit(Identity who, JobSpec.Builder spec) {
        return rig.as(who).submitJob(SubmitJobRequest.newBuilder().setSpec(spec.setScript("#!/bin/sh\ntrue\n")
                .setWorkDir("/tmp").setTimeLimitSeconds(60).setHold(true)).build()).getJobId();
    }

    private long submit(Identity who) {
        return submit(who, JobSpec.newBuilder());
    }

    /** Every page of {@code request}, following the tokens. */
    private List<ListJobsResponse> pages(ControllerGrpc.ControllerBlockingStub as, ListJobsRequest request) {
        List<ListJobsResponse> pages = new ArrayList<>();
        ListJobsRequest.Builder next = request.toBuilder();
        while (true) {
            ListJobsResponse page = as.listJobs(next.build());
            pages.add(page);
            assertTrue(pages.size() < 1000, "the pages end");
            if (page.getNextPageToken().isEmpty()) {
                return pages;
            }
            next.setPageToken(page.getNextPageToken());
        }
    }

    private static List<Long> ids(List<ListJobsResponse> pages) {
        return pages.stream().flatMap(p -> p.getJobsList().stream()).map(Job::getJobId).toList();
    }

    @Test
    void pagesOfTheSizeAsked_coverEveryJob_once_inIdOrder() {
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            all.add(submit(ALICE));
        }
        List<ListJobsResponse> pages = pages(rig.as(ALICE), ListJobsRequest.newBuilder().setPageSize(10).build());

        assertEquals(List.of(10, 10, 5), pages.stream().map(ListJobsResponse::getJobsCount).toList());
        assertEquals(all, ids(pages));
        assertEquals("", pages.get(2).getNextPageToken(), "the last page says so");
    }

    @Test
    void streamJobs_sendsListJobsPages_oneAfterAnother_onOneStream() {
        long first = submit(ALICE, JobSpec.newBuilder().setArray("0-24"));
        List<ListJobsResponse> streamed = new ArrayList<>();
        rig.as(ALICE).streamJobs(ListJobsRequest.newBuilder().setPageSize(10).build()).forEachRemaining(streamed::add);

        assertEquals(List.of(10, 10, 5), streamed.stream().map(ListJobsResponse::getJobsCount).toList());
        assertEquals(LongStream.range(first, first + 25).boxed().toList(), ids(streamed));
        assertEquals("", streamed.get(2).getNextPageToken());
        // a streamed page's token resumes the listing with ListJobs, as ListJobs' own
        assertEquals(LongStream.range(first + 10, first + 25).boxed().toList(), ids(pages(rig.as(ALICE),
                ListJobsRequest.newBuilder().setPageSize(10).setPageToken(streamed.get(0).getNextPageToken()).build())));
    }

    @Test
    void streamJobs_refusesWhatListJobsRefuses() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.as(ALICE).streamJobs(ListJobsRequest.newBuilder().setPageToken("bogus").build()).hasNext());
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("page_token: "), e.getStatus().getDescription());
        e = assertThrows(StatusRuntimeException.class, () -> rig.as(ALICE).streamJobs(ListJobsRequest.newBuilder()
                .setView(JobView.JOB_VIEW_PRIVATE).build()).hasNext());
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("view: JOB_VIEW_PRIVATE is for GetJob only; StreamJobs"),
                e.getStatus().getDescription());
    }

    @Test
    void theDefaultPage_is1000Jobs() {
        long first = submit(ALICE, JobSpec.newBuilder().setArray("0-1004")); // 1,005 jobs in one submission
        List<Long> all = LongStream.range(first, first + 1005).boxed().toList();
        List<ListJobsResponse> pages = pages(rig.as(ALICE), ListJobsRequest.getDefaultInstance());

        assertEquals(List.of(1000, 5), pages.stream().map(ListJobsResponse::getJobsCount).toList());
        assertEquals(all, ids(pages));
    }

    @Test
    void filtersApplyOnTheServer_acrossPages() {
        List<Long> bobs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long a = submit(ALICE);
            if (i % 3 == 0) {
                bobs.add(submit(BOB, JobSpec.newBuilder().addPartitions("other")));
            }
            assertTrue(a > 0);
        }
        List<ListJobsResponse> pages = pages(rig.as(ALICE), ListJobsRequest.newBuilder().addUsers("bob").setPageSize(4).build());

        assertEquals(bobs, ids(pages));
        assertTrue(pages.stream().allMatch(p -> p.getJobsCount() <= 4));
        assertEquals(bobs, ids(pages(rig.as(ALICE), ListJobsRequest.newBuilder().addPartitions("other").setPageSize(3).build())));
        assertEquals(List.of(), ids(pages(rig.as(ALICE), ListJobsRequest.newBuilder().addUsers("nobody").build())));
    }

    @Test
    void arrayJobIds_selectEveryTaskOfTheArray_andCombineWithJobIdsAsEither() {
        long before = submit(ALICE);
        long array = submit(ALICE, JobSpec.newBuilder().setArray("0-6"));
        long after = submit(ALICE);
        List<Long> tasks = LongStream.rangeClosed(array, array + 6).boxed().toList();

        assertEquals(tasks, ids(pages(rig.as(ALICE), ListJobsRequest.newBuilder().addArrayJobIds(array).setPageSize(3).build())));
        List<Long> either = new ArrayList<>(List.of(before));
        either.addAll(tasks);
        assertEquals(either, ids(pages(rig.as(ALICE), ListJobsRequest.newBuilder().addJobIds(before)
                .addArrayJobIds(array).setPageSize(2).build())));
        assertEquals(List.of(after), ids(pages(rig.as(ALICE), ListJobsRequest.newBuilder().addJobIds(after)
                .addArrayJobIds(after).build())), "an id that is no array's names that job alone");
    }

    @Test
    void aPage_stopsBefore2MiB_soJobsOfAnyAcceptedSize_areListed() {
        String big = "x".repeat(400_000); // an argument: in the full view (Slurm's Command=), not in squeue's summary
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            all.add(submit(ALICE, JobSpec.newBuilder().addArgv(big)));
        }
        List<ListJobsResponse> full = pages(rig.as(ALICE), ListJobsRequest.newBuilder().setPageSize(100).build());

        assertEquals(all, ids(full), "every job, though together they are far over 4 MiB");
        assertTrue(full.size() >= 3, "several pages: " + full.size());
        for (ListJobsResponse page : full) {
            assertTrue(page.getSerializedSize() <= (2 << 20) + 1024, "a page holds at most 2 MiB of jobs: " + page.getSerializedSize());
        }
        List<ListJobsResponse> summary = pages(rig.as(ALICE), ListJobsRequest.newBuilder().setPageSize(100)
                .setView(JobView.JOB_VIEW_SUMMARY).build());
        assertEquals(List.of(12), summary.stream().map(ListJobsResponse::getJobsCount).toList(), "the summary carries no argv");
    }

    @Test
    void theSummaryView_carriesSqueuesFields_andLeavesTheRestOut() {
        long id = submit(ALICE, JobSpec.newBuilder().addArgv("--input=data").addPartitions("other").setName("report"));
        Job summary = rig.as(ALICE).listJobs(ListJobsRequest.newBuilder().addJobIds(id).setView(JobView.JOB_VIEW_SUMMARY)
                .build()).getJobs(0);
        Job full = rig.as(ALICE).getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();

        assertEquals(JobSpec.newBuilder().setUser("alice").setUid(1000).setGid(1000).setWorkDir("/tmp").addPartitions("other")
                .build(), summary.getSpec());
        assertTrue(full.hasEligibleTime() && full.hasLastStateChange() && full.hasLastSchedEval());
        assertTrue(!summary.hasEligibleTime() && !summary.hasLastStateChange() && !summary.hasLastSchedEval(),
                "timestamps no squeue report shows are left out: " + summary);
        assertEquals(List.of("other"), full.getPartitionsList());
        assertEquals(0, summary.getPartitionsCount());
        assertEquals("report", summary.getName());
        assertEquals(full.getState(), summary.getState());
        assertEquals(full.getReason(), summary.getReason());
        assertEquals("other", summary.getPartition());
        assertEquals(full.getNumCpus(), summary.getNumCpus());
        assertEquals(full.getTimeLimitSeconds(), summary.getTimeLimitSeconds());
        assertEquals(full.getSubmitTime(), summary.getSubmitTime());
        assertEquals(List.of("--input=data"), full.getSpec().getArgvList(), "the full view has the spec");
        assertEquals(full, rig.as(ALICE).getJob(GetJobRequest.newBuilder().setJobId(id).setView(JobView.JOB_VIEW_FULL)
                .build()).getJob().toBuilder().setTimeUsedSeconds(full.getTimeUsedSeconds()).build(), "UNSPECIFIED is FULL");
    }

    @Test
    void badPagingInput_isInvalidArgument_namingTheField() {
        for (int i = 0; i < 5; i++) {
            submit(ALICE);
        }
        ListJobsResponse first = rig.as(ALICE).listJobs(ListJobsRequest.newBuilder().addUsers("alice").setPageSize(2).build());
        String token = first.getNextPageToken();
        assertTrue(!token.isEmpty());

        assertInvalid("page_size: must be 0", ListJobsRequest.newBuilder().setPageSize(-1).build());
        assertInvalid("page_token: not a token this server issued", ListJobsRequest.newBuilder().setPageToken("bogus!").build());
        assertInvalid("page_token: not a token this server issued", ListJobsRequest.newBuilder().setPageToken("ajFiYWQ").build());
        assertInvalid("page_token: was issued for other filters", ListJobsRequest.newBuilder().addUsers("bob").setPageToken(token).build());
        assertInvalid("page_token: was issued for other filters", ListJobsRequest.newBuilder().addUsers("alice")
                .setView(JobView.JOB_VIEW_SUMMARY).setPageToken(token).build());
        // the same filters with another page size: fine
        assertEquals(3, rig.as(ALICE).listJobs(ListJobsRequest.newBuilder().addUsers("alice").setPageSize(50)
                .setPageToken(token).build()).getJobsCount());
    }

    private void assertInvalid(String start, ListJobsRequest request) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.as(ALICE).listJobs(request));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith(start), e.getStatus().getDescription());
    }
}
