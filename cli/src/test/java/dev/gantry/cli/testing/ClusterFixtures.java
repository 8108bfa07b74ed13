package dev.gantry.cli.testing;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.common.hostlist.Hostlist;
import java.time.Instant;
import java.util.List;

/** Builders for jobs, nodes and partitions with sensible defaults; tests change what they are about. */
public final class ClusterFixtures {

    /** The instant tests run "now". */
    public static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    private ClusterFixtures() {}

    /** A pending job of alice's in partition debug, submitted ten minutes before {@link #NOW}. */
    public static Job.Builder aJob(long id) {
        return Job.newBuilder()
                .setJobId(id)
                .setSpec(JobSpec.newBuilder().setName("job" + id).setUser("alice").setUid(1000).setGid(1000)
                        .setWorkDir("/home/alice").setSubmitDir("/home/alice").setSubmitHost("login1")
                        .setScript("#!/bin/sh\ntrue\n"))
                .setState(JobState.JOB_STATE_PENDING)
                .setReason("Priority")
                .setPartition("debug")
                .setNumNodes(1)
                .setNumCpus(1)
                .setNumTasks(1)
                .setTimeLimitSeconds(3600)
                .setPriority(100)
                .setSubmitTime(at(NOW.minusSeconds(600)));
    }

    /** The job running on {@code nodes} since {@code secondsAgo} seconds before {@link #NOW}. */
    public static Job.Builder running(Job.Builder job, long secondsAgo, String... nodes) {
        Instant start = NOW.minusSeconds(secondsAgo);
        return job.setState(JobState.JOB_STATE_RUNNING)
                .setReason("None")
                .clearNodes().addAllNodes(List.of(nodes))
                .setNodeList(Hostlist.compress(List.of(nodes)))
                .setNumNodes(nodes.length)
                .setBatchHost(nodes[0])
                .setStartTime(at(start))
                .setEndTime(job.getTimeLimitSeconds() < 0 ? Timestamp.getDefaultInstance()
                        : at(start.plusSeconds(job.getTimeLimitSeconds())));
    }

    /** An idle node with 4 CPUs and 8000 MiB. */
    public static Node.Builder aNode(String name, String... partitions) {
        return Node.newBuilder()
                .setName(name)
                .setState(NodeState.NODE_STATE_IDLE)
                .setCpus(4).setSockets(1).setCoresPerSocket(4).setThreadsPerCore(1)
                .setRealMemoryMb(8000)
                .setWeight(1)
                .addAllPartitions(List.of(partitions));
    }

    /** An up partition over {@code nodes}, unlimited time. */
    public static Partition.Builder aPartition(String name, String... nodes) {
        return Partition.newBuilder()
                .setName(name)
                .setState(PartitionState.PARTITION_STATE_UP)
                .addAllNodes(List.of(nodes))
                .setNodeList(nodes.length == 0 ? "" : Hostlist.compress(List.of(nodes)))
                .setMaxTimeSeconds(-1)
                .setDefaultTimeSeconds(-1)
                .setMaxNodes(-1)
                .setTotalCpus(4 * nodes.length)
                .setPriorityTier(1);
    }

    public static Timestamp at(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
