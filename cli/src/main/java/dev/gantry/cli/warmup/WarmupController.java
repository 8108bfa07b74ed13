package dev.gantry.cli.warmup;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelJobResponse;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetJobResponse;
import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetPrioritiesResponse;
import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.GetSharesResponse;
import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.HoldJobResponse;
import dev.gantry.api.v1.JobPriority;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListNodesResponse;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListPartitionsResponse;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.PriorityWeights;
import dev.gantry.api.v1.ShareRow;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;

/**
 * A Controller that answers every call with the same small cluster, so that {@link WarmupRun} can exercise
 * each command's whole path (gRPC, protobuf, formatting) without a real controller. Not for anything else.
 */
final class WarmupController extends ControllerGrpc.ControllerImplBase {

    private static final Timestamp EARLIER = Timestamp.newBuilder().setSeconds(1_800_000_000L).build();

    private static final List<Job> JOBS = List.of(
            Job.newBuilder().setJobId(1)
                    .setSpec(JobSpec.newBuilder().setName("warmup").setUser("gantry").setWorkDir("/tmp")
                            .setSubmitHost("localhost"))
                    .setState(JobState.JOB_STATE_RUNNING).setReason("None").setPartition("debug")
                    .addNodes("n1").setNodeList("n1").setBatchHost("n1").setNumNodes(1).setNumCpus(1).setNumTasks(1)
                    .setTimeLimitSeconds(3600).setSubmitTime(EARLIER).setStartTime(EARLIER).build(),
            Job.newBuilder().setJobId(2)
                    .setSpec(JobSpec.newBuilder().setName("waiting").setUser("gantry").setWorkDir("/tmp"))
                    .setState(JobState.JOB_STATE_PENDING).setReason("Resources").setPartition("debug")
                    .setNumNodes(1).setNumCpus(1).setTimeLimitSeconds(-1).setSubmitTime(EARLIER).build());

    private static final List<Node> NODES = List.of(
            Node.newBuilder().setName("n1").setState(NodeState.NODE_STATE_MIXED).setCpus(2).setAllocCpus(1)
                    .setRealMemoryMb(1024).addPartitions("debug").build(),
            Node.newBuilder().setName("n2").setState(NodeState.NODE_STATE_IDLE).setDrain(true).setReason("warmup")
                    .setCpus(2).setRealMemoryMb(1024).addPartitions("debug").build());

    private static final Partition PARTITION = Partition.newBuilder().setName("debug")
            .setState(PartitionState.PARTITION_STATE_UP).setIsDefault(true).addNodes("n1").addNodes("n2")
            .setNodeList("n[1-2]").setMaxTimeSeconds(-1).setDefaultTimeSeconds(-1).setMaxNodes(-1).setTotalCpus(4)
            .build();

    /** Answers a unary call with {@code response}. */
    private static <T> void reply(StreamObserver<T> observer, T response) {
        observer.onNext(response);
        observer.onCompleted();
    }

    @Override
    public void submitJob(SubmitJobRequest request, StreamObserver<SubmitJobResponse> observer) {
        reply(observer, SubmitJobResponse.newBuilder().setJobId(3).build());
    }

    @Override
    public void watchJobs(WatchJobsRequest request, StreamObserver<WatchJobsResponse> observer) {
        Job ended = JOBS.get(0).toBuilder().setJobId(3).setState(JobState.JOB_STATE_COMPLETED).build();
        reply(observer, WatchJobsResponse.newBuilder().setJob(ended).build());
    }

    @Override
    public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> observer) {
        CancelJobResponse.Builder response = CancelJobResponse.newBuilder();
        request.getJobIdsList().forEach(id -> response.addResults(CancelResult.newBuilder().setJobId(id).setOk(true)));
        reply(observer, response.build());
    }

    @Override
    public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> observer) {
        reply(observer, GetJobResponse.newBuilder().setJob(JOBS.get(0)).build());
    }

    @Override
    public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
        reply(observer, ListJobsResponse.newBuilder().addAllJobs(JOBS).build());
    }

    @Override
    public void streamJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
        reply(observer, ListJobsResponse.newBuilder().addAllJobs(JOBS).build());
    }

    @Override
    public void listNodes(ListNodesRequest request, StreamObserver<ListNodesResponse> observer) {
        reply(observer, ListNodesResponse.newBuilder().addAllNodes(NODES).build());
    }

    @Override
    public void listPartitions(ListPartitionsRequest request, StreamObserver<ListPartitionsResponse> observer) {
        reply(observer, ListPartitionsResponse.newBuilder().addPartitions(PARTITION).build());
    }

    @Override
    public void holdJob(HoldJobRequest request, StreamObserver<HoldJobResponse> observer) {
        HoldJobResponse.Builder response = HoldJobResponse.newBuilder();
        request.getJobIdsList().forEach(id -> response.addResults(JobResult.newBuilder().setJobId(id).setOk(true)));
        reply(observer, response.build());
    }

    @Override
    public void getPriorities(GetPrioritiesRequest request, StreamObserver<GetPrioritiesResponse> observer) {
        reply(observer, GetPrioritiesResponse.newBuilder()
                .setWeights(PriorityWeights.newBuilder().setAge(1000).setFairshare(1000).setJobSize(100))
                .addPriorities(JobPriority.newBuilder().setJobId(2).setPartition("debug").setUser("gantry")
                        .setPriority(1500).setAge(500).setFairshare(900).setJobSize(100))
                .build());
    }

    @Override
    public void getShares(GetSharesRequest request, StreamObserver<GetSharesResponse> observer) {
        reply(observer, GetSharesResponse.newBuilder()
                .addRows(ShareRow.newBuilder().setAccount("root").setRawShares(1).setNormShares(1).setFairshare(1))
                .addRows(ShareRow.newBuilder().setAccount("root").setUser("gantry").setDepth(1).setRawShares(1)
                        .setNormShares(1).setFairshare(1))
                .build());
    }
}
