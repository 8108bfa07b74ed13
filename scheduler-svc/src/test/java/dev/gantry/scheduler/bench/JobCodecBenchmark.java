package dev.gantry.scheduler.bench;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the controller spends mapping one submitted job (the submission benchmark's, {@link BenchJobs}: 30 environment
 * variables) between the API and the domain: the request in ({@code requestIn}, on the gRPC executor at each
 * submission), and the stored form written at each state change ({@code storedForm}, on the group-commit writer).
 * Run with {@code scheduler-svc/bench/jmh.sh 1g JobCodecBenchmark -prof gc} (docs/benchmarks.md, "Submission
 * throughput").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class JobCodecBenchmark {

    private JobSpec spec;
    private JobRecord record;

    @Setup
    public void setUp() {
        spec = BenchJobs.job(1, 0);
        record = JobProtos.fromProto(Job.newBuilder().setJobId(1).setSpec(spec).setName(spec.getName())
                .setState(dev.gantry.api.v1.JobState.JOB_STATE_PENDING).addPartitions("batch").setPartition("batch")
                .setMinNodes(1).setMaxNodes(1).setNumTasks(1).setCpusPerTask(1).setMemPerNodeMb(1024)
                .setTimeLimitSeconds(3600).setSubmitTime(Timestamp.newBuilder().setSeconds(1_790_000_000)).build());
    }

    @Benchmark
    public Object requestIn() {
        return JobRequests.fromProto(spec);
    }

    @Benchmark
    public byte[] storedForm() {
        return JobProtos.toProto(record).toByteArray();
    }
}
